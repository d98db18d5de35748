// End to end: a capture with a planted canary secret is imported and run through the real CLI (child
// processes), and the canary must appear in no scenario file, no redacted capture, no report, and no
// console output. Besides key-shaped values, opaque ones are planted where only the fail-closed rules
// catch them: a URL query string, a header no list knows, and body keys named like credentials.
import { mkdir, mkdtemp, readdir, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { filesUnder, runCli } from "../helpers.ts";

// Shaped like an OpenAI key (caught by the default patterns), and one only a --redact-pattern catches.
const CANARY = "sk-canaryQ7x9Zt3Lw8Vb2Nc5Md";
const CANARY_TOKEN = "CANARY-TOKEN-4815162342";
const CANARY_HEADER = "opaque-canary-header-value-77aa";
const CANARY_QUERY = "opaque-canary-query-value-31bd";
const CANARY_CUSTOM_HEADER = "opaque-canary-custom-header-c4e2";
const CANARY_BODY_KEY = "opaque-canary-body-key-9f06";
/** Too short to be searched for elsewhere: only its key redacts it (also in the raw text). */
const CANARY_SHORT = "Zq-7Kw";
/** Fragments that would betray a partial leak too. */
const needles = [
  CANARY,
  CANARY.slice(3),
  CANARY_TOKEN,
  "4815162342",
  CANARY_HEADER,
  CANARY_QUERY,
  "query-value-31bd",
  CANARY_CUSTOM_HEADER,
  "custom-header-c4e2",
  CANARY_BODY_KEY,
  "body-key-9f06",
  CANARY_SHORT,
];

const work = await mkdtemp(join(tmpdir(), "tnc-canary-"));
afterAll(() => rm(work, { recursive: true, force: true }));

async function cli(args: string[]): Promise<{ code: number; output: string }> {
  const { code, stdout, stderr } = await runCli(args, 60_000);
  return {
    code,
    output: `${stdout}
${stderr}`,
  };
}

const tool = { name: "lookup", description: "looks things up", inputSchema: { type: "object", properties: { token: { type: "string" } } } };
const params = {
  temperature: 0.3,
  user: `svc ${CANARY}`,
  metadata: { ticket: CANARY_TOKEN },
  x_api_key: CANARY_BODY_KEY,
  session: CANARY_SHORT,
};
const history = [
  { role: "user", content: `use Bearer ${CANARY} for the API` },
  { role: "assistant", content: "noted" },
];
const prompt = `look up ${CANARY_TOKEN}`;
const openaiTools = [{ type: "function", function: { name: tool.name, description: tool.description, parameters: tool.inputSchema } }];
const assistant = {
  role: "assistant",
  content: null,
  tool_calls: [{ id: "call_1", type: "function", function: { name: "lookup", arguments: JSON.stringify({ token: CANARY }) } }],
};
// Keys in the order the reference builds them, so `raw` is its exact text (for --exact).
const body = (messages: unknown[]) => ({ model: "m1", messages, tools: openaiTools, tool_choice: "auto", ...params });
const turn0 = body([...history, { role: "user", content: prompt }]);
const turn1 = body([
  ...history,
  { role: "user", content: prompt },
  assistant,
  { role: "tool", tool_call_id: "call_1", content: `found ${CANARY}` },
]);
const headers = {
  authorization: `Bearer ${CANARY}`,
  "x-api-key": CANARY_HEADER,
  "x-custom-token": CANARY_CUSTOM_HEADER,
  "content-type": "application/json",
};
const path = `/v1/chat/completions?api-key=${CANARY_QUERY}`;

const passing = {
  id: "captured.canary.passes",
  title: "a capture full of secrets that replays cleanly once redacted",
  provenance: { source: `proxy log with key ${CANARY}`, kind: "captured", provider: "openai" },
  client: { style: "openai", model: "m1", requestParams: params },
  toolkit: { extraTools: [{ ...tool, result: { output: `found ${CANARY}`, isError: false } }] },
  call: { prompt, history },
  upstream: { replies: [{ toolCalls: [{ id: "call_1", name: "lookup", args: { token: CANARY } }] }, { text: `done ${CANARY_TOKEN}` }] },
  exchanges: [
    {
      stream: false,
      requests: [
        { method: "POST", path, headers, body: turn0, raw: JSON.stringify(turn0) },
        { method: "POST", path, headers, body: turn1, raw: JSON.stringify(turn1) },
      ],
    },
  ],
};
// The same, but the captured body has a key the client does not send: the failure's diff shows the
// expected value, which held the canary.
const failing = structuredClone(passing) as unknown as Omit<typeof passing, "exchanges"> & {
  exchanges: { stream: boolean; requests: Record<string, unknown>[] }[];
};
failing.id = "captured.canary.fails";
failing.title = "a capture whose replay fails, with a secret in the expected value";
const { raw: _raw, ...firstRequest } = failing.exchanges[0].requests[0];
failing.exchanges[0].requests = [{ ...firstRequest, body: { ...turn0, x_secret: `key ${CANARY}`, x_token: CANARY_TOKEN } }];

describe("a planted canary secret", () => {
  it("appears in no scenario, no report and no output of import and run", async () => {
    const captures = join(work, "captures");
    const out = join(work, "scenarios");
    await rm(captures, { recursive: true, force: true });
    await mkdir(captures, { recursive: true });
    await writeFile(join(captures, "passes.json"), JSON.stringify(passing, null, 2));
    await writeFile(join(captures, "fails.json"), JSON.stringify(failing, null, 2));

    // CANARY_TOKEN has no known key shape: only the extra pattern redacts it.
    const imported = await cli([
      "import",
      join(captures, "passes.json"),
      join(captures, "fails.json"),
      "--out",
      out,
      "--redact-pattern",
      "CANARY-TOKEN-\\d+",
      "--capture-out",
      join(work, "redacted"),
    ]);
    expect(imported.code, imported.output).toBe(0);
    expect(imported.output).toContain("redacted");
    // Each fail-closed place was redacted, not dropped: the capture keeps its shape.
    const kept = JSON.parse(await readFile(join(work, "redacted", "passes.json"), "utf8"));
    const keptRequest = kept.exchanges[0].requests[1];
    expect(keptRequest.path).toBe("/v1/chat/completions?api-key=[REDACTED]");
    expect(keptRequest.headers).toMatchObject({ "x-custom-token": "[REDACTED]", "content-type": "application/json" });
    expect(keptRequest.body).toMatchObject({ x_api_key: "[REDACTED]", session: "[REDACTED]" });
    expect(kept.client.requestParams).toMatchObject({ x_api_key: "[REDACTED]", session: "[REDACTED]" });
    for (const place of ["/path", "/headers/x-custom-token", "/body/x_api_key", "/body/session", "/raw"])
      expect(imported.output).toContain(`/exchanges/0/requests/1${place}`);

    const reports = join(work, "reports");
    const exact = await cli([
      "import",
      join(captures, "passes.json"),
      "--out",
      join(work, "exact"),
      "--exact",
      "--redact-pattern",
      "CANARY-TOKEN-\\d+",
    ]);
    expect(exact.code, exact.output).toBe(0);
    const runExact = await cli(["run", join(work, "exact"), "--json", join(reports, "exact.json")]);
    expect(runExact.code, runExact.output).toBe(0);

    const run = await cli([
      "run",
      out,
      "--json",
      join(reports, "r.json"),
      "--junit",
      join(reports, "r.xml"),
      "--matrix",
      join(reports, "r.md"),
      "--html",
      join(reports, "r.html"),
    ]);
    // One passes (redaction kept inputs and wire consistent), one fails with a path diff.
    expect(run.code, run.output).toBe(1);
    expect(run.output).toMatch(/PASS .*scenarios\/passes\[openai-run\]/);
    expect(run.output).toMatch(/FAIL .*scenarios\/fails\[openai-run\]/);
    expect(run.output).toContain('/requests/0/body/x_secret: missing, expected "[REDACTED]"');

    const files = (await Promise.all([out, join(work, "exact"), join(work, "redacted"), reports].map(filesUnder))).flat();
    expect(files.filter((file) => file.endsWith(".yaml")).length).toBe(3);
    expect(files.filter((file) => /r\.(json|xml|md|html)$/.test(file)).length).toBe(4);
    const texts = [
      ...(await Promise.all(files.map(async (file) => ({ where: file, text: await readFile(file, "utf8") })))),
      { where: "import output", text: imported.output },
      { where: "import --exact output", text: exact.output },
      { where: "run output", text: run.output },
      { where: "run --exact output", text: runExact.output },
    ];
    for (const { where, text } of texts)
      for (const needle of needles) expect(text.includes(needle), `${needle} leaked into ${where}`).toBe(false);
    // Four CLI processes one after another (each bounded at 60 s): seconds of start-up each on a busy machine.
  }, 240_000);

  it("is refused when it would survive: a secret as an object key stops the import, and the message does not show it", async () => {
    const captures = join(work, "bad");
    await mkdir(captures, { recursive: true });
    const bad = structuredClone(passing) as unknown as Record<string, any>;
    bad.id = "captured.canary.key";
    bad.client.requestParams = { [CANARY]: 1 };
    await writeFile(join(captures, "key.json"), JSON.stringify(bad));
    const result = await cli(["import", join(captures, "key.json"), "--out", join(work, "never")]);
    expect(result.code).toBe(2);
    expect(result.output).toContain("redaction incomplete");
    for (const needle of needles) expect(result.output.includes(needle), `${needle} leaked`).toBe(false);
    await expect(readdir(join(work, "never"))).rejects.toThrow();
  });
});
