// End to end: the recording proxy (`conformance capture`) between a client and the llm-mock. The
// reference client and the Python port's client (through its runner) make tool-loop calls, run and
// stream, in both styles, with secrets planted in headers, a cookie and a credential-named body key;
// the captures the proxy writes must import and pass against the reference unedited, and no secret
// may appear in any file written or line logged.
import { toolnexusSuite } from "../../../conformance/suite/toolnexus.ts";
import { spawn } from "node:child_process";
import { mkdtemp, readFile, rm } from "node:fs/promises";
import { createServer } from "node:http";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { obtainableHere } from "../../obtainable.ts";
import { parse } from "yaml";
import { repoRoot } from "../../../conformance/common/paths.ts";
import { filesUnder } from "../helpers.ts";
import { startLlmMock, type LlmMock } from "../../../fixtures/llm-mock/index.ts";
import { importCaptures } from "../../../conformance/capture/cli.ts";
import { patternsFor } from "../../../conformance/capture/redact-rules.ts";
import type { Capture } from "../../../conformance/schema/capture.types.ts";
import { startCaptureProxy, type CaptureProxy } from "../../../conformance/capture/proxy.ts";
import { runSuite } from "../../../conformance/run/suite.ts";
import { lintPaths } from "../../../conformance/scenario/lint.ts";
import { createReferenceSubject } from "../../../conformance/subjects/reference/index.ts";
import { openSubjects } from "../../../conformance/run/subjects.ts";
import type { Subject } from "../../../conformance/subjects/subject.ts";

const API_KEY = "opaque-proxy-api-key-5c1e9d";
const COOKIE = "opaque-proxy-cookie-77f0a2";
const BODY_SECRET = "opaque-proxy-body-secret-3b8e";
const QUERY_SECRET = "opaque-proxy-query-secret-a41d";
const needles = [API_KEY, COOKIE, BODY_SECRET, QUERY_SECRET, "5c1e9d", "77f0a2", "3b8e", "a41d"];

const work = await mkdtemp(join(tmpdir(), "tnc-proxy-"));
afterAll(() => rm(work, { recursive: true, force: true }));

const patterns = await patternsFor({});
const step = { timeoutMs: 30_000 };
const tool = {
  name: "lookup",
  description: "looks things up",
  inputSchema: { type: "object", properties: { q: { type: "string" } }, required: ["q"] },
};
const replies = [
  { toolCalls: [{ id: "call_1", name: "lookup", args: { q: "weather" } }], usage: { input: 5, output: 2 } },
  { text: "it is sunny today", usage: { input: 9, output: 4 } },
];

interface Recorded {
  files: string[];
  log: string[];
}

/** One client session through a fresh proxy in front of a fresh mock: a two-turn tool loop. */
async function recordSession(
  subject: Subject,
  name: string,
  style: "openai" | "anthropic",
  op: "client.run" | "client.stream",
): Promise<Recorded> {
  const mock = await startLlmMock();
  const log: string[] = [];
  let proxy: CaptureProxy | undefined;
  try {
    await mock.act("script", replies);
    proxy = await startCaptureProxy({
      host: "127.0.0.1",
      port: 0,
      upstream: new URL(mock.vars.url),
      outDir: join(work, "captures", name),
      patterns,
      idPrefix: "captured/proxy-test/",
      log: (line) => log.push(line),
    });
    const must = async (operation: string, input: Record<string, unknown>) => {
      const outcome = await subject.execute(operation, input, step);
      if (!outcome.ok)
        throw new Error(`${subject.info.name} ${operation}: ${JSON.stringify(outcome.error)}\n${subject.drainStderr?.() ?? ""}`);
      return outcome.value;
    };
    await must("toolkit.create", { handle: "tk", extraTools: [{ ...tool, result: { output: "sunny, 21 C", isError: false } }] });
    await must("client.create", {
      handle: "c",
      style,
      baseUrl: `${proxy.url}/v1`,
      model: "m1",
      apiKey: API_KEY,
      headers: { cookie: `sid=${COOKIE}` },
      systemPrompt: "answer briefly",
      requestParams: { temperature: 0.2, session_token: BODY_SECRET },
    });
    await must(op, { client: "c", prompt: "what is the weather?", toolkit: "tk" });
    expect(await mock.violations()).toEqual([]);
  } finally {
    await subject.reset(step);
    await proxy?.close();
    await mock.stop();
  }
  return { files: proxy!.written(), log };
}

/** Import the captures, run their scenarios against the reference; every result must pass. */
async function replayAgainstReference(files: string[], name: string): Promise<{ scenarios: string[]; statuses: string[] }> {
  const scenarios = await importCaptures(files, { out: join(work, "scenarios", name) }, () => undefined);
  const lint = await lintPaths(scenarios, toolnexusSuite);
  expect(lint.diagnostics).toEqual([]);
  const reference = createReferenceSubject();
  try {
    const results = await runSuite(lint.expanded, reference, { fixtureKinds: toolnexusSuite.fixtureKinds });
    for (const result of results)
      expect(
        result.status,
        `${result.scenario}: ${result.message} ${JSON.stringify(result.failures?.flatMap((failure) => failure.diff ?? []))}`,
      ).toBe("pass");
    return { scenarios, statuses: results.map((result) => result.status) };
  } finally {
    await reference.close();
  }
}

async function expectNoSecretsIn(paths: string[], log: string[]): Promise<void> {
  const texts = [
    ...(await Promise.all(paths.map(async (file) => ({ where: file, text: await readFile(file, "utf8") })))),
    { where: "the proxy's log", text: log.join("\n") },
  ];
  for (const { where, text } of texts)
    for (const needle of needles) expect(text.includes(needle), `${needle} leaked into ${where}`).toBe(false);
}

const cases = [
  ["openai", "client.run"],
  ["openai", "client.stream"],
  ["anthropic", "client.run"],
  ["anthropic", "client.stream"],
] as const;

describe("the recording proxy with the reference client", () => {
  for (const [style, op] of cases) {
    it(`records a ${style} ${op.slice(7)} tool loop as one capture that replays unedited`, async () => {
      const name = `reference-${style}-${op.slice(7)}`;
      const subject = createReferenceSubject();
      let recorded: Recorded;
      try {
        recorded = await recordSession(subject, name, style, op);
      } finally {
        await subject.close();
      }
      expect(recorded.files).toHaveLength(1);
      const capture = JSON.parse(await readFile(recorded.files[0], "utf8")) as Capture;
      expect(capture.id).toBe(`captured/proxy-test/${style}-${op.slice(7)}-0001`);
      expect(capture.provenance).toMatchObject({ kind: "captured", format: "proxy", derived: ["requestParams"] });
      expect(capture.provenance.originalSha256).toMatch(/^[0-9a-f]{64}$/);
      expect(capture.exchanges[0].requests).toHaveLength(2);
      expect(capture.upstream?.replies).toEqual(replies);
      expect(capture.client).toMatchObject({
        style,
        model: "m1",
        systemPrompt: "answer briefly",
        requestParams: { temperature: 0.2, session_token: "[REDACTED]" },
      });
      const headers = capture.exchanges[0].requests[0].headers;
      expect(headers[style === "openai" ? "authorization" : "x-api-key"]).toBe("[REDACTED]");
      expect(headers.cookie).toBe("[REDACTED]");
      const { scenarios } = await replayAgainstReference(recorded.files, name);
      await expectNoSecretsIn([...recorded.files, ...scenarios], recorded.log);
    });
  }
});

// The published package comes from pip's index: where this machine cannot reach it, this skips with
// the decision's words (test/obtainable.ts); where it can, an install that fails fails the test.
const pythonPort = obtainableHere("python");

describe("the recording proxy with the Python port's client (runner)", () => {
  it("records run and stream in both styles; the captures replay against the reference unedited", async ({ skip }) => {
    skip(!pythonPort.here, pythonPort.note);
    let python: Subject | undefined;
    let unavailable: string | undefined;
    for await (const opened of openSubjects({ runners: ["python"] })) {
      python = opened.subject;
      unavailable = opened.unavailableReason;
    }
    // The runner installs the published package; where it cannot, this says why.
    expect(python, `python runner unavailable: ${unavailable}`).toBeDefined();
    const files: string[] = [];
    const log: string[] = [];
    try {
      for (const [style, op] of cases) {
        const recorded = await recordSession(python!, `python-${style}-${op.slice(7)}`, style, op);
        expect(recorded.files, recorded.log.join("\n")).toHaveLength(1);
        files.push(...recorded.files);
        log.push(...recorded.log);
      }
    } finally {
      await python!.close();
    }
    const { scenarios, statuses } = await replayAgainstReference(files, "python");
    expect(statuses).toHaveLength(4);
    await expectNoSecretsIn([...files, ...scenarios], log);
  }, 120_000);
});

/** A POST through the proxy, as a raw client would send it. */
async function post(proxy: CaptureProxy, path: string, body: unknown, headers: Record<string, string> = {}): Promise<Response> {
  return fetch(`${proxy.url}${path}`, {
    method: "POST",
    headers: { "content-type": "application/json", ...headers },
    body: JSON.stringify(body),
    signal: AbortSignal.timeout(10_000),
  });
}

describe("the recording proxy's wire handling", () => {
  const withProxy = async (name: string, body: (mock: LlmMock, proxy: CaptureProxy, log: string[]) => Promise<void>) => {
    const mock = await startLlmMock();
    const log: string[] = [];
    const proxy = await startCaptureProxy({
      host: "127.0.0.1",
      port: 0,
      upstream: new URL(mock.vars.url),
      outDir: join(work, "captures", name),
      patterns,
      log: (line) => log.push(line),
    });
    try {
      await body(mock, proxy, log);
    } finally {
      await proxy.close();
      await mock.stop();
    }
  };

  it("passes SSE through chunk by chunk: the first event reaches the client before the upstream sends the last", async () => {
    await withProxy("sse", async (mock, proxy) => {
      await mock.act("script", [{ text: "one two three four five", chunkDelayMs: 250 }]);
      const started = Date.now();
      const response = await post(proxy, "/v1/chat/completions", {
        model: "m1",
        messages: [{ role: "user", content: "count" }],
        stream: true,
        stream_options: { include_usage: true },
      });
      const reader = response.body!.getReader();
      const first = await reader.read();
      const firstAt = Date.now() - started;
      expect(new TextDecoder().decode(first.value)).toContain("data: ");
      while (!(await reader.read()).done);
      const lastAt = Date.now() - started;
      // Seven events 250 ms apart: buffering the whole stream would deliver the first at the end.
      expect(lastAt - firstAt).toBeGreaterThan(1000);
    });
  });

  it("forwards other paths without recording them, passes upstream errors through and records them", async () => {
    await withProxy("errors", async (mock, proxy) => {
      const other = await fetch(`${proxy.url}/v1/models`, { signal: AbortSignal.timeout(10_000) });
      expect(other.status).toBe(404); // the mock's answer, passed through
      await mock.act("script", [{ status: 429, retryAfter: 0, body: { error: { message: "slow down" } } }]);
      const answer = await post(proxy, "/v1/messages", { model: "m1", max_tokens: 4096, messages: [{ role: "user", content: "hi" }] });
      expect(answer.status).toBe(429);
      expect(answer.headers.get("retry-after")).toBe("0");
      expect(await answer.json()).toEqual({ error: { message: "slow down" } });
      await proxy.close();
      const [file, ...more] = proxy.written();
      expect(more).toEqual([]);
      const capture = JSON.parse(await readFile(file, "utf8")) as Capture;
      expect(capture.upstream?.replies).toEqual([{ status: 429, retryAfter: 0, body: { error: { message: "slow down" } } }]);
    });
  });

  it("keeps planted secrets (Authorization, x-api-key, cookie, query parameter, credential body key) off the disk", async () => {
    await withProxy("planted", async (mock, proxy, log) => {
      await mock.act("script", [{ text: "ok" }]);
      const answer = await post(
        proxy,
        `/v1/chat/completions?api-key=${QUERY_SECRET}`,
        { model: "m1", messages: [{ role: "user", content: "hi" }], client_secret: BODY_SECRET },
        { authorization: `Bearer ${API_KEY}`, "x-api-key": API_KEY, cookie: `sid=${COOKIE}` },
      );
      expect(answer.status).toBe(200);
      await answer.text();
      await proxy.close();
      const files = proxy.written();
      expect(files).toHaveLength(1);
      const capture = JSON.parse(await readFile(files[0], "utf8")) as Capture;
      const request = capture.exchanges[0].requests[0];
      expect(request.path).toBe("/v1/chat/completions?api-key=[REDACTED]");
      expect(request.headers).toMatchObject({ authorization: "[REDACTED]", "x-api-key": "[REDACTED]", cookie: "[REDACTED]" });
      expect(capture.client.requestParams).toEqual({ client_secret: "[REDACTED]" });
      await expectNoSecretsIn(await filesUnder(join(work, "captures", "planted")).catch(() => []), log);
    });
  });

  it("records a retried call (503, then an answer) as one capture that replays, retry included", async () => {
    const subject = createReferenceSubject();
    const mock = await startLlmMock();
    const log: string[] = [];
    const proxy = await startCaptureProxy({
      host: "127.0.0.1",
      port: 0,
      upstream: new URL(mock.vars.url),
      outDir: join(work, "captures", "retry"),
      patterns,
      log: (line) => log.push(line),
    });
    try {
      await mock.act("script", [{ status: 503, retryAfter: 0 }, { text: "ok after all" }]);
      const created = await subject.execute(
        "client.create",
        { handle: "c", style: "openai", baseUrl: `${proxy.url}/v1`, model: "m1" },
        step,
      );
      expect(created.ok).toBe(true);
      const outcome = await subject.execute("client.run", { client: "c", prompt: "hi" }, step);
      expect(outcome.ok, JSON.stringify(outcome)).toBe(true);
    } finally {
      await subject.close();
      await proxy.close();
      await mock.stop();
    }
    expect(proxy.written()).toHaveLength(1);
    const capture = JSON.parse(await readFile(proxy.written()[0], "utf8")) as Capture;
    expect(capture.upstream?.replies).toEqual([
      { status: 503, retryAfter: 0, body: { error: { message: "llm-mock scripted error 503", type: "server_error" } } },
      { text: "ok after all" },
    ]);
    await replayAgainstReference(proxy.written(), "retry");
  });

  it("records a call that failed for good (400) as a capture whose replay expects that failure", async () => {
    const subject = createReferenceSubject();
    const mock = await startLlmMock();
    const proxy = await startCaptureProxy({
      host: "127.0.0.1",
      port: 0,
      upstream: new URL(mock.vars.url),
      outDir: join(work, "captures", "failed"),
      patterns,
      log: () => undefined,
    });
    try {
      await mock.act("script", [
        { status: 400, body: { error: { message: "tools: array must not be empty", type: "invalid_request_error" } } },
      ]);
      await subject.execute("client.create", { handle: "c", style: "openai", baseUrl: `${proxy.url}/v1`, model: "m1" }, step);
      const outcome = await subject.execute("client.run", { client: "c", prompt: "hi" }, step);
      expect(outcome.ok).toBe(false);
    } finally {
      await subject.close();
      await proxy.close();
      await mock.stop();
    }
    const { scenarios } = await replayAgainstReference(proxy.written(), "failed");
    const call = (parse(await readFile(scenarios[0], "utf8")).steps as { op: string; expect: { at: string; equals?: unknown }[] }[]).find(
      (s) => s.op === "${path.op}",
    )!;
    expect(call.expect).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ at: "/error/kind", equals: "http" }),
        { at: "/error/details/status", equals: 400 },
      ]),
    );
  });

  it("close() ends an in-flight stalled stream and the listener at once", async () => {
    await withProxy("close", async (mock, proxy) => {
      await mock.act("script", [{ text: "never ends", fault: "stall" }]);
      const response = await post(proxy, "/v1/messages", {
        model: "m1",
        max_tokens: 4096,
        messages: [{ role: "user", content: "hi" }],
        stream: true,
      });
      const reader = response.body!.getReader();
      await reader.read();
      const started = Date.now();
      await proxy.close();
      expect(Date.now() - started).toBeLessThan(1000);
      await expect(reader.read()).rejects.toThrow();
      await expect(fetch(proxy.url, { signal: AbortSignal.timeout(2000) })).rejects.toThrow();
    });
  });

  it("answers 502 with a clear log line when the upstream is unreachable", async () => {
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, "127.0.0.1", () => resolve()));
    const port = (closed.address() as { port: number }).port;
    await new Promise((resolve) => closed.close(resolve));
    const log: string[] = [];
    const proxy = await startCaptureProxy({
      host: "127.0.0.1",
      port: 0,
      upstream: new URL(`http://127.0.0.1:${port}`),
      outDir: join(work, "captures", "unreachable"),
      patterns,
      log: (line) => log.push(line),
    });
    try {
      const answer = await post(proxy, "/v1/chat/completions", { model: "m1", messages: [] });
      expect(answer.status).toBe(502);
      expect(log.join("\n")).toMatch(
        /POST \/v1\/chat\/completions: upstream http:\/\/127\.0\.0\.1:\d+ unreachable \(ECONNREFUSED\); answered 502/,
      );
    } finally {
      await proxy.close();
    }
    expect(proxy.written()).toEqual([]);
  });

  it("refuses a listen address off loopback", async () => {
    await expect(
      startCaptureProxy({ host: "0.0.0.0", port: 0, upstream: new URL("http://127.0.0.1:1"), outDir: work, patterns }),
    ).rejects.toThrow(/loopback/);
  });
});

describe("the capture command", () => {
  it("runs until SIGTERM, then closes the listener and an in-flight stalled stream within its bound", async () => {
    const mock = await startLlmMock();
    await mock.act("script", [{ text: "never ends", fault: "stall" }]);
    const out = join(work, "captures", "command");
    const child = spawn(
      join(repoRoot, "node_modules/.bin/tsx"),
      [join(repoRoot, "conformance/cli/main.ts"), "capture", "--listen", "127.0.0.1:0", "--upstream", mock.vars.url, "--out", out],
      { cwd: repoRoot, stdio: ["ignore", "pipe", "pipe"] },
    );
    let output = "";
    child.stdout.on("data", (chunk) => (output += chunk));
    child.stderr.on("data", (chunk) => (output += chunk));
    const exited = new Promise<{ code: number | null; signal: string | null }>((resolve) =>
      child.once("exit", (code, signal) => resolve({ code, signal })),
    );
    try {
      const url = await new Promise<string>((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`no "listening on" line within 30 s:\n${output}`)), 30_000);
        child.stdout.on("data", () => {
          const match = /listening on (http:\/\/127\.0\.0\.1:\d+)/.exec(output);
          if (match) {
            clearTimeout(timer);
            resolve(match[1]);
          }
        });
      });
      const response = await fetch(`${url}/v1/chat/completions`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ model: "m1", messages: [{ role: "user", content: "hi" }], stream: true }),
        signal: AbortSignal.timeout(10_000),
      });
      const reader = response.body!.getReader();
      await reader.read(); // the stream is open and stalled
      const stopping = Date.now();
      child.kill("SIGTERM");
      const { code, signal } = await exited;
      // Dead of the signal (tsx's wrapper reports it as 128 + 15).
      expect(signal === "SIGTERM" || code === 143, `exit ${code} ${signal}\n${output}`).toBe(true);
      expect(Date.now() - stopping).toBeLessThan(5000);
      expect(output).toContain("capture: closed");
      await expect(reader.read()).rejects.toThrow();
      await expect(fetch(url, { signal: AbortSignal.timeout(2000) })).rejects.toThrow();
    } finally {
      if (child.exitCode === null && child.signalCode === null) child.kill("SIGKILL");
      await mock.stop();
    }
  }, 60_000);

  it("refuses a bad --listen or --upstream with a usage error", async () => {
    const run = (args: string[]) =>
      new Promise<{ code: number | null; output: string }>((resolve) => {
        const child = spawn(join(repoRoot, "node_modules/.bin/tsx"), [join(repoRoot, "conformance/cli/main.ts"), "capture", ...args], {
          cwd: repoRoot,
          stdio: ["ignore", "pipe", "pipe"],
        });
        let output = "";
        child.stdout.on("data", (chunk) => (output += chunk));
        child.stderr.on("data", (chunk) => (output += chunk));
        const timer = setTimeout(() => child.kill("SIGKILL"), 30_000);
        child.once("exit", (code) => {
          clearTimeout(timer);
          resolve({ code, output });
        });
      });
    const badListen = await run(["--listen", "nowhere", "--upstream", "http://127.0.0.1:1", "--out", work]);
    expect(badListen.code).toBe(2);
    expect(badListen.output).toContain("expected HOST:PORT on loopback");
    const badUpstream = await run(["--listen", "127.0.0.1:0", "--upstream", "ftp://x", "--out", work]);
    expect(badUpstream.code).toBe(2);
    expect(badUpstream.output).toContain("expected an http(s) URL");
  }, 60_000);
});
