// The reference client's cost per turn against a bare fetch of the same request to the same mock: a
// 20-message conversation (history) and one scripted text answer, by run and by stream, per style.
// The bare side replays the exact body and headers the client sent (taken from the mock's record) and
// reads the answer (JSON for run, the whole SSE text for stream); the client side also builds the
// body, parses the answer / the SSE events and assembles the result. Client and bare turns alternate;
// each run gives one ratio of the two medians.
import { startLlmMock, type LlmMock } from "../../fixtures/llm-mock/index.ts";
import { createClient, type Client, type Message, type Style } from "../../reference/index.ts";
import { median, summarize } from "../lib/stats.ts";
import type { Row } from "../lib/table.ts";
import { inProcess, type BenchContext } from "./context.ts";

const historyLength = 20;
const reply = { text: "hello big world, this is the answer", usage: { input: 120, output: 8 } };
/** Headers the HTTP stack sets by itself; everything else the client sent is replayed. */
const automaticHeaders = new Set([
  "host",
  "connection",
  "content-length",
  "accept-encoding",
  "accept-language",
  "sec-fetch-mode",
  "user-agent",
  "transfer-encoding",
]);

export function conversation(length = historyLength): Message[] {
  return Array.from({ length }, (_, index) =>
    index % 2 === 0
      ? { role: "user", content: `question ${index / 2}: what does tool ${index} return for the input ${"x".repeat(40)}?` }
      : { role: "assistant", content: `answer ${(index - 1) / 2}: it returns a short summary of ${"y".repeat(60)}.` },
  );
}

async function clientTurn(client: Client, mode: "run" | "stream", history: Message[]): Promise<void> {
  if (mode === "run") {
    const result = await client.run("and now?", { history });
    if (!result.text) throw new Error("client.run returned no text");
    return;
  }
  // The client's stream takes no history (only an id into its store): seed the store once per turn.
  let text = "";
  for await (const event of client.stream("and now?", { id: "bench" })) if (event.type === "text") text += event.delta;
  if (!text) throw new Error("client.stream returned no text");
}

interface Replay {
  url: string;
  headers: Record<string, string>;
  body: string;
}

async function bareTurn(replay: Replay, mode: "run" | "stream"): Promise<void> {
  const response = await fetch(replay.url, { method: "POST", headers: replay.headers, body: replay.body });
  if (!response.ok) throw new Error(`bare fetch: HTTP ${response.status}`);
  if (mode === "run") await response.json();
  else await response.text();
}

async function measureOne(context: BenchContext, mock: LlmMock, style: Style, mode: "run" | "stream"): Promise<Row[]> {
  const { options, log } = context;
  const history = conversation();
  const client = createClient({
    style,
    baseUrl: mock.vars.baseUrl,
    model: "bench-model",
    apiKey: "bench-key",
    retries: 0,
    logger: { warn: () => undefined },
  });
  const store = client.conversationStore();
  const turn = async () => {
    await mock.act("script", [reply]);
    if (mode === "stream") await store.save("bench", history); // reset the transcript: always 20 messages of history
    const started = performance.now();
    await clientTurn(client, mode, history);
    return performance.now() - started;
  };
  // The first client turn is also what the bare side replays.
  const before = ((await mock.snapshot()) as { requests: unknown[] }).requests.length;
  await turn();
  const recorded = (
    (await mock.snapshot()) as {
      requests: { path: string; headers: Record<string, string>; raw: string; body: { messages?: unknown[] } }[];
    }
  ).requests[before];
  const replay: Replay = {
    url: `${mock.vars.url}${recorded.path}`,
    headers: Object.fromEntries(Object.entries(recorded.headers).filter(([name]) => !automaticHeaders.has(name))),
    body: recorded.raw,
  };
  const sentMessages = recorded.body.messages?.length ?? 0;
  const bare = async () => {
    await mock.act("script", [reply]);
    const started = performance.now();
    await bareTurn(replay, mode);
    return performance.now() - started;
  };
  for (let index = 0; index < 5; index++) {
    await turn();
    await bare();
  }
  const ratios: number[] = [];
  const clientTimes: number[] = [];
  const bareTimes: number[] = [];
  for (let run = 0; run < options.runs; run++) {
    const mineClient: number[] = [];
    const mineBare: number[] = [];
    for (let index = 0; index < options.turnsPerRun; index++) {
      if (index % 2 === 0) {
        mineClient.push(await turn());
        mineBare.push(await bare());
      } else {
        mineBare.push(await bare());
        mineClient.push(await turn());
      }
    }
    ratios.push(median(mineClient) / median(mineBare));
    clientTimes.push(...mineClient);
    bareTimes.push(...mineBare);
  }
  const label = `${style} ${mode}`;
  log(
    `client ${label}: client ${median(clientTimes).toFixed(2)} ms, bare fetch ${median(bareTimes).toFixed(2)} ms, ratio ${median(ratios).toFixed(2)}`,
  );
  return [
    {
      group: "client",
      figure: `client turn / bare fetch, ${label}`,
      subject: inProcess,
      unit: "x",
      summary: summarize(ratios),
      target: { stat: "median", op: "<=", value: 1.2 },
      note: `${historyLength}-message history (${sentMessages} messages on the wire), ${options.turnsPerRun} client + ${options.turnsPerRun} bare turns per run, ratio of the run's medians`,
    },
    { group: "client", figure: `client turn, ${label}`, subject: inProcess, unit: "ms", summary: summarize(clientTimes) },
    { group: "client", figure: `bare fetch, ${label}`, subject: inProcess, unit: "ms", summary: summarize(bareTimes) },
  ];
}

export async function measureClientTurn(context: BenchContext): Promise<Row[]> {
  const rows: Row[] = [];
  const mock = await startLlmMock();
  try {
    for (const style of ["openai", "anthropic"] as const) {
      for (const mode of ["run", "stream"] as const) rows.push(...(await measureOne(context, mock, style, mode)));
    }
    const violations = await mock.violations();
    if (violations.length) throw new Error(`the mock saw contract violations: ${violations.slice(0, 3).join("; ")}`);
  } finally {
    await mock.stop();
  }
  return rows;
}
