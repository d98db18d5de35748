// What a stdio fixture costs to reach its first answer: from spawning `node SCRIPT` to the answer of
// its `initialize`, for the abc server as written (bin/abc-stdio.mjs, the MCP SDK loaded module by
// module) and as subjects start it (bundled, fixtures/mcp-servers/bundled-bin.ts), beside a bare node
// child that answers at once (the floor no script can go under). On a busy machine this time came out
// of the subject's budget (issue 35); the three are sampled in turn, so load falls on all of them alike.
import { spawn } from "node:child_process";
import { fileURLToPath } from "node:url";
import { closeProcessGroup } from "../../conformance/common/process-group.ts";
import { makeTempDir, removeTempDir } from "../../conformance/engine/temp-dirs.ts";
import { bundledScript } from "../../fixtures/mcp-servers/bundled-bin.ts";
import { pairedRatios, summarize } from "../lib/stats.ts";
import type { Row } from "../lib/table.ts";
import type { BenchContext } from "./context.ts";

const initialize = `${JSON.stringify({
  jsonrpc: "2.0",
  id: 1,
  method: "initialize",
  params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "bench", version: "1" } },
})}\n`;
/** A child answering its first line at once: node's own start-up and two pipe wake-ups. */
const floorScript = `process.stdin.once("data", () => process.stdout.write("{}\\n"))`;
const answerTimeoutMs = 20_000;

/** Milliseconds from spawn to the first line the child writes after `initialize` is sent. */
async function firstAnswerMs(args: string[]): Promise<number> {
  const started = performance.now();
  const child = spawn(process.execPath, args, { stdio: ["pipe", "pipe", "ignore"], detached: true });
  let timer: NodeJS.Timeout | undefined;
  try {
    child.stdin.write(initialize);
    await new Promise<void>((resolve, reject) => {
      timer = setTimeout(() => reject(new Error(`${args.join(" ")}: no answer within ${answerTimeoutMs} ms`)), answerTimeoutMs);
      child.stdout.once("data", () => resolve());
      child.once("error", reject);
    });
    return performance.now() - started;
  } finally {
    // Cleared however the wait ended: a spawn error must not leave the bound pending for 20 s.
    clearTimeout(timer);
    await closeProcessGroup(child, 2_000);
  }
}

export async function measureFixtureStart(context: BenchContext): Promise<Row[]> {
  const samples = context.options.quick ? 3 : context.options.runs * 4;
  const dir = await makeTempDir("tnc-bench-start-");
  const state = ["--state", `${dir}/state.jsonl`];
  const source = [fileURLToPath(new URL("../../fixtures/mcp-servers/bin/abc-stdio.mjs", import.meta.url)), ...state];
  const bundled = [await bundledScript("abc-stdio.mjs"), ...state];
  const times = { source: [] as number[], bundled: [] as number[], floor: [] as number[] };
  try {
    for (let sample = 0; sample < samples; sample++) {
      times.source.push(await firstAnswerMs(source));
      times.bundled.push(await firstAnswerMs(bundled));
      times.floor.push(await firstAnswerMs(["-e", floorScript]));
    }
  } finally {
    await removeTempDir(dir);
  }
  context.log(
    `fixture start: median source ${summarize(times.source).median.toFixed(0)} ms, bundled ${summarize(times.bundled).median.toFixed(0)} ms, bare node ${summarize(times.floor).median.toFixed(0)} ms`,
  );
  const note = `${samples} starts of each, in turn`;
  const row = (figure: string, values: number[], unit = "ms"): Row => ({
    group: "fixture-start",
    figure,
    subject: "abc-stdio",
    unit,
    summary: summarize(values),
    note,
  });
  return [
    row("stdio fixture spawn to first answer, as written (SDK module by module)", times.source),
    row("stdio fixture spawn to first answer, bundled (as subjects start it)", times.bundled),
    row("bare node child spawn to first answer (the floor)", times.floor),
    {
      ...row("stdio fixture start bundled / as written", pairedRatios(times.bundled, times.source), "x"),
      target: { stat: "median", op: "<=", value: 0.7 },
    },
  ];
}
