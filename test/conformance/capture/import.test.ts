// Importing what real tools produce: HAR 1.2 (a browser's devtools export, mitmproxy's), raw HTTP
// request dumps (Go's httputil.DumpRequestOut, chunked bodies included) and curl --trace-ascii, into
// captures whose scenarios replay against the reference.
import { createHash } from "node:crypto";
import { mkdtemp, readdir, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { runCli } from "../helpers.ts";
import { parse } from "yaml";
import { defaultCapturedDir, defaultCapturedScenarioDir, importCaptures, type ImportOptions } from "../../../conformance/capture/cli.ts";
import type { Capture } from "../../../conformance/schema/capture.types.ts";
import { redact } from "../../../conformance/capture/redact.ts";
import { DEFAULT_PATTERNS, REDACTED } from "../../../conformance/capture/redact-rules.ts";
import { readSource } from "../../../conformance/capture/sources.ts";
import { captureToScenario } from "../../../conformance/capture/to-scenario.ts";
import { repoRoot } from "../../../conformance/common/paths.ts";

const data = join(repoRoot, "test/conformance/capture/data");
const glmDir = join(defaultCapturedDir, "glm-import");
const work = await mkdtemp(join(tmpdir(), "tnc-import-"));
afterAll(() => rm(work, { recursive: true, force: true }));

let runDir = 0;
/** Import into a fresh folder; returns the redacted captures by name and the log. */
async function importInto(files: string[], options: Partial<ImportOptions> = {}) {
  const dir = join(work, `run-${runDir++}`);
  const lines: string[] = [];
  const written = await importCaptures(files, { out: join(dir, "scenarios"), captureOut: join(dir, "captures"), ...options }, (line) =>
    lines.push(line),
  );
  const captures: Record<string, Capture> = {};
  for (const name of await readdir(join(dir, "captures")))
    captures[name.replace(/\.json$/, "")] = JSON.parse(await readFile(join(dir, "captures", name), "utf8"));
  return { dir, written, captures, log: lines.join("\n") };
}

const sha256 = async (file: string) =>
  createHash("sha256")
    .update(await readFile(file))
    .digest("hex");
const bodyOf = (capture: Capture, index: number) => capture.exchanges[0].requests[index]!.body as Record<string, any>;

async function cli(args: string[]): Promise<{ code: number; output: string }> {
  const { code, stdout, stderr } = await runCli(args, 120_000);
  return { code, output: `${stdout}\n${stderr}` };
}

describe("HAR import", () => {
  it("a browser's devtools export: only the LLM calls, a streamed anthropic tool loop as one capture, an unrelated call as another", async () => {
    const file = join(data, "browser-devtools.har");
    const { captures, dir } = await importInto([file]);
    expect(Object.keys(captures).sort()).toEqual(["browser-devtools-1", "browser-devtools-2"]);
    const loop = captures["browser-devtools-1"]!;
    expect(loop.id).toBe("scenarios/browser-devtools-1"); // the scenario path below --out's parent
    expect(loop.client).toEqual({
      style: "anthropic",
      model: "claude-sonnet-4-5",
      systemPrompt: "You are a concise travel assistant.",
      requestParams: { max_tokens: 1024 },
    });
    expect(loop.exchanges).toHaveLength(1);
    expect(loop.exchanges[0].stream).toBe(true);
    expect(loop.exchanges[0].requests.map((request) => request.path)).toEqual(["/v1/messages", "/v1/messages"]);
    // Turn 1's request carried the tool's result: it becomes the host tool's fixed result.
    expect(loop.toolkit?.extraTools[0]).toMatchObject({
      name: "get_weather",
      result: { output: "18 C, sunny, wind 12 km/h", isError: false },
    });
    // Turn 0's reply is what the client echoed in turn 1 (its SSE was not saved); turn 1's from its SSE.
    expect(loop.upstream?.replies).toEqual([
      { text: "Let me check.", toolCalls: [{ id: "toolu_01Lis", name: "get_weather", args: { city: "Lisbon" } }] },
      { text: "It is 18 C and sunny in Lisbon.", usage: { input: 388, output: 14 } },
    ]);
    expect(loop.provenance).toEqual({
      source: "HAR browser-devtools.har, entries 6 and 8 (api.anthropic.com)",
      provider: "anthropic",
      kind: "captured",
      format: "har",
      capturedAt: "2026-11-30T10:02:10.050Z",
      originalSha256: await sha256(file),
      derived: ["requestParams"],
    });
    // HTTP/2 pseudo-headers are not a client's headers; the key is gone, the version kept.
    const headers = loop.exchanges[0].requests[0].headers;
    expect(Object.keys(headers).some((name) => name.startsWith(":"))).toBe(false);
    expect(headers).toMatchObject({ "x-api-key": REDACTED, "anthropic-version": "2023-06-01" });
    const single = captures["browser-devtools-2"]!;
    expect(single.exchanges[0]).toMatchObject({ stream: false, requests: [{ method: "POST" }] });
    expect(single.upstream?.replies).toEqual([{ text: "Lisbon weather check today", usage: { input: 19, output: 6 } }]);
    const scenario = parse(await readFile(join(dir, "scenarios", "browser-devtools-1.yaml"), "utf8"));
    expect(scenario.provenance.format).toBe("har");
    expect(scenario.matrix).toEqual(["anthropic-stream"]);
  });

  it("mitmproxy's export: base64 content decoded, a 429 skipped with a warning, a continuation with history is its own run capture, the query string redacted", async () => {
    const { captures, log } = await importInto([join(data, "mitmproxy.har")]);
    expect(log).toContain("mitmproxy.har: entry 2: skipped: the upstream answered 429");
    expect(Object.keys(captures).sort()).toEqual(["mitmproxy-1", "mitmproxy-2"]);
    const loop = captures["mitmproxy-1"]!;
    expect(loop.exchanges[0].requests).toHaveLength(2);
    expect(loop.exchanges[0].requests[0].path).toBe(`/openai/v1/chat/completions?api-version=${REDACTED}`);
    expect(loop.client.requestParams).toEqual({ temperature: 0, seed: 7, user: "employee-4411" });
    // The base64 JSON answer's usage joined the reply the next request's assistant message gave.
    expect(loop.upstream?.replies[0]).toEqual({
      toolCalls: [{ id: "call_Q1", name: "search_docs", args: { query: "laptop request" } }],
      usage: { input: 61, output: 17 },
    });
    const continuation = captures["mitmproxy-2"]!;
    expect(continuation.call.prompt).toBe("And for a monitor?");
    expect(continuation.call.history).toHaveLength(5);
    expect(continuation.client.systemPrompt).toBeUndefined();
    expect(continuation.provenance.capturedAt).toBe("2026-11-30T11:00:20.000000+00:00");
  });

  it("--match picks entries by URL (glob or /regex/), POSTs only, and names the entry whose body is no LLM request", async () => {
    const browser = join(data, "browser-devtools.har");
    const glob = await importInto([browser], { match: "https://api.anthropic.com/*" });
    expect(Object.keys(glob.captures).sort()).toEqual(["browser-devtools-1", "browser-devtools-2"]);
    await expect(importInto([browser], { match: "/example\\.test\\/api\\/telemetry$/" })).rejects.toThrow(
      /browser-devtools\.har: entry 7: expected an LLM request body with "model" and a "messages" list/,
    );
    await expect(importInto([join(data, "mitmproxy.har")], { match: "*/v1/models*" })).rejects.toThrow(/no LLM call to import/);
  });
});

describe("raw HTTP import", () => {
  const dump = join(glmDir, "glm-go-dump.http");

  it("Go's DumpRequestOut: Content-Length and chunked bodies, chained into one capture, the last reply defaulted and said so", async () => {
    const { captures } = await importInto([dump], { capturedAt: "2026-11-30T09:20:00Z" });
    const capture = captures["glm-go-dump"]!;
    expect(capture.exchanges[0].requests).toHaveLength(2);
    // The second request came chunked: decoded, it is the first plus the assistant reply and the tool result.
    expect(bodyOf(capture, 1).messages.map((message: { role: string }) => message.role)).toEqual(["system", "user", "assistant", "tool"]);
    expect(capture.exchanges[0].requests[1].raw).toBe(JSON.stringify(bodyOf(capture, 1)));
    expect(capture.exchanges[0].requests[0].headers).toMatchObject({
      Host: "api.scaleway.ai",
      Authorization: REDACTED,
      "Content-Type": "application/json",
    });
    expect(capture.upstream?.replies[1]).toEqual({ text: "ok" });
    expect(capture.description).toContain('the replay answers a minimal openai reply ({text: "ok"})');
    expect(capture.provenance).toMatchObject({
      format: "raw-http",
      capturedAt: "2026-11-30T09:20:00Z",
      originalSha256: await sha256(dump),
      derived: ["requestParams", "upstream.replies"],
    });
  });

  it("--reply gives the last reply; --client gives the client inputs exactly (nothing derived)", async () => {
    const client = join(work, "client.json");
    const requestParams = { temperature: 0.2, top_p: 0.9, max_tokens: 2048, chat_template_kwargs: { enable_thinking: false } };
    await writeFile(
      client,
      JSON.stringify({
        style: "openai",
        model: "glm-4.5-air",
        systemPrompt: "You are the HR assistant of the platform. Answer from the tools' results.",
        requestParams,
      }),
    );
    const { captures } = await importInto([dump], { reply: [join(glmDir, "glm-go-dump.reply.json")], client });
    const capture = captures["glm-go-dump"]!;
    expect(capture.upstream?.replies[1]).toEqual({ text: "You have 12 leave days left for 2026.", usage: { input: 460, output: 11 } });
    expect(capture.client.requestParams).toEqual(requestParams);
    expect(capture.provenance.derived).toBeUndefined();
    await writeFile(join(work, "bad-client.json"), JSON.stringify({ style: "openai", temprature: 1 }));
    await expect(importInto([dump], { client: join(work, "bad-client.json") })).rejects.toThrow(
      /bad-client\.json: unknown key "temprature"/,
    );
    await expect(
      importInto([dump], { reply: [join(glmDir, "glm-go-dump.reply.json"), join(glmDir, "glm-go-dump.reply.json")] }),
    ).rejects.toThrow(/--reply: 1 more reply than/);
  });

  it("curl --trace-ascii: rows rejoined (a header wrapped past 64 bytes included), the JSON answer read", async () => {
    const { captures } = await importInto([join(data, "curl-trace.txt")]);
    const capture = captures["curl-trace"]!;
    expect(capture.exchanges[0].requests[0].headers).toMatchObject({ Authorization: REDACTED, Host: "llm.example.test" });
    expect(capture.client).toEqual({ style: "openai", model: "gpt-4o-mini", requestParams: { max_completion_tokens: 5 } });
    expect((capture.upstream?.replies[0] as { usage?: unknown }).usage).toEqual({ input: 20, output: 2 });
  });

  it("bad input names the file, the line and what was expected, and quotes nothing", async () => {
    const cases: [string, string, RegExp][] = [
      [
        "bad-header.http",
        "POST /v1/chat/completions HTTP/1.1\r\nHost: h\r\nno colon secret-value-1\r\n\r\n{}",
        /bad-header\.http:3: expected a header line: Name: value/,
      ],
      [
        "short.http",
        "POST /v1/chat/completions HTTP/1.1\r\nContent-Length: 99\r\n\r\n{}",
        /short\.http:4: the body is shorter than its Content-Length \(99 bytes\)/,
      ],
      [
        "chunk.http",
        "POST /v1/chat/completions HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\nzz secret-value-1\r\n",
        /chunk\.http:4: expected a chunk size in hex/,
      ],
      [
        "notjson.http",
        "POST /v1/chat/completions HTTP/1.1\r\nContent-Length: 17\r\n\r\nsecret-value-1 {}",
        /notjson\.http: line 1: the request body is not JSON/,
      ],
      ["what.txt", "hello secret-value-1\n", /what\.txt:1: not an input import knows: expected a capture/],
      ["broken.har", '{"log": {"entries": [\n  {"secret-value-1": }\n]}}', /broken\.har: not valid JSON \(line 2\)/],
      [
        "nobody.har",
        JSON.stringify({ log: { entries: [{ request: { method: "POST", url: "https://x.test/v1/chat/completions", headers: [] } }] } }),
        /nobody\.har: entry 1 \(\/log\/entries\/0\/request\/postData\/text\): an LLM call needs its request body/,
      ],
    ];
    for (const [name, text, expected] of cases) {
      await writeFile(join(work, name), text);
      const failure = await importInto([join(work, name)]).then(
        () => undefined,
        (error: Error) => error.message,
      );
      expect(failure, name).toMatch(expected);
      expect(failure).not.toContain("secret-value-1");
    }
  });
});

describe("imported scenarios replay", () => {
  it("the test data's scenarios pass against the reference", async () => {
    const { dir } = await importInto([join(data, "browser-devtools.har"), join(data, "mitmproxy.har"), join(data, "curl-trace.txt")]);
    const run = await cli(["run", join(dir, "scenarios")]);
    expect(run.code, run.output).toBe(0);
    expect(run.output).toContain("5 passed, 0 failed");
  });

  it("the committed GLM scenarios are what importing their HAR and Go dump gives now", async () => {
    const reimport: [string, string[]][] = [
      ["glm-mitmproxy.har", []],
      ["glm-go-dump.http", [join(glmDir, "glm-go-dump.reply.json")]],
    ];
    for (const [name, replies] of reimport) {
      const file = join(glmDir, name);
      const scenarioPath = join(defaultCapturedScenarioDir, "glm-import", name.replace(/\.\w+$/, ".yaml"));
      const committed = await readFile(scenarioPath, "utf8");
      const capturedAt = parse(committed).provenance.capturedAt as string;
      const source = await readSource(file, {
        options: {},
        idFor: (_file, itemName) => `captured/glm-import/${itemName}`,
        replies: [...(await Promise.all(replies.map((reply) => readFile(reply, "utf8"))))],
        now: capturedAt,
      });
      const { value } = redact(source.items[0]!.data, DEFAULT_PATTERNS, { knownSecrets: source.knownSecrets });
      const scenarioId = `captured/glm-import/${name.replace(/\.\w+$/, "")}`;
      const expected = captureToScenario(value as Capture, { repoRoot, scenarioPath, scenarioId, capturePath: resolve(file) });
      expect(committed, `${scenarioPath} is stale: see fixtures/captured/README.md (glm-import) for the import command`).toBe(expected);
    }
  });
});
