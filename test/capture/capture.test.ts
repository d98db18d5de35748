// The capture format, redaction, and the committed captures and their scenarios.
import { readdir, readFile } from "node:fs/promises";
import { join, resolve } from "node:path";
import { describe, expect, it } from "vitest";
import { repoRoot } from "../../conformance/cli/paths.ts";
import { defaultCapturedDir, defaultCapturedScenarioDir } from "../../conformance/capture/cli.ts";
import type { Capture } from "../../conformance/capture/capture.types.ts";
import { captureProblems, readCaptureData } from "../../conformance/capture/load.ts";
import { DEFAULT_PATTERNS, readPatternFile, defaultPatternFile, redact, REDACTED } from "../../conformance/capture/redact.ts";
import { captureToScenario } from "../../conformance/capture/to-scenario.ts";
import { lintPaths } from "../../conformance/scenario/lint.ts";

const ragGoDir = join(defaultCapturedDir, "rag-go");
const ragGoFiles = (await readdir(ragGoDir)).filter((name) => name.endsWith(".json")).map((name) => join(ragGoDir, name));

const minimal = (): Capture => ({
  id: "captured.test.minimal",
  title: "t",
  provenance: { source: "test", kind: "captured" },
  client: { style: "openai", model: "m1" },
  call: { prompt: "hi" },
  exchanges: [{ stream: false, requests: [{ method: "POST", path: "/v1/chat/completions", headers: {}, body: { model: "m1", messages: [{ role: "user", content: "hi" }] } }] }],
});

describe("capture format", () => {
  it("every committed capture is valid", async () => {
    expect(ragGoFiles.length).toBeGreaterThan(0);
    for (const file of ragGoFiles) expect(captureProblems(file, await readCaptureData(file))).toEqual([]);
  });

  it("rejects unknown keys, a missing provenance kind, history with a streamed exchange, and too few replies", () => {
    const bad = { ...minimal(), extra: 1 } as unknown;
    expect(captureProblems("x.json", bad).join("\n")).toContain('must NOT have additional properties "extra"');
    const noKind = { ...minimal(), provenance: { source: "s" } } as unknown;
    expect(captureProblems("x.json", noKind).join("\n")).toContain("/provenance: must have required property 'kind'");
    const streamed = minimal();
    streamed.call.history = [{ role: "user", content: "before" }];
    streamed.exchanges[0].stream = true;
    expect(captureProblems("x.json", streamed).join("\n")).toContain("client.stream takes no history");
    const loop = minimal();
    loop.exchanges[0].requests[0].index = 1;
    expect(captureProblems("x.json", loop).join("\n")).toContain("request 1 needs at least 2 upstream replies");
  });

  it("the default pattern file holds the built-in defaults", async () => {
    expect(await readPatternFile(defaultPatternFile)).toEqual(DEFAULT_PATTERNS);
  });
});

describe("redaction", () => {
  const secret = "sk-proj-AbCdEfGhIjKlMnOp1234";
  it("redacts credential headers whole, pattern matches everywhere, and keeps JSON strings and raw text consistent", () => {
    const capture = minimal() as unknown as Record<string, any>;
    capture.call.prompt = `my key is ${secret}`;
    capture.upstream = { replies: [{ toolCalls: [{ id: "c1", name: "t", args: { token: secret } }] }, { text: "ok" }] };
    const body = { model: "m1", messages: [{ role: "user", content: `my key is ${secret}` }, { role: "assistant", content: null, tool_calls: [{ id: "c1", type: "function", function: { name: "t", arguments: JSON.stringify({ token: secret }) } }] }] };
    capture.exchanges[0].requests[0] = {
      method: "POST",
      path: "/v1/chat/completions",
      headers: { Authorization: "Bearer opaque-token-without-shape", "X-Api-Key": "anything-at-all", "content-type": "application/json" },
      body,
      raw: JSON.stringify(body),
    };
    const { value, redactedAt } = redact(capture, DEFAULT_PATTERNS);
    const request = value.exchanges[0].requests[0];
    expect(request.headers).toEqual({ Authorization: REDACTED, "X-Api-Key": REDACTED, "content-type": "application/json" });
    expect(value.call.prompt).toBe(`my key is ${REDACTED}`);
    expect(value.upstream.replies[0].toolCalls[0].args).toEqual({ token: REDACTED });
    expect(request.body.messages[1].tool_calls[0].function.arguments).toBe(JSON.stringify({ token: REDACTED }));
    // The raw text is what the redacted body serializes to, byte for byte.
    expect(request.raw).toBe(JSON.stringify(request.body));
    expect(JSON.stringify(value)).not.toContain("sk-proj");
    expect(JSON.stringify(value)).not.toContain("opaque-token");
    expect(redactedAt).toContain("/exchanges/0/requests/0/headers/Authorization");
    expect(redactedAt).toContain("/call/prompt");
  });

  it("applies extra patterns, and refuses a pattern that matches the empty string", () => {
    const capture = minimal();
    capture.call.prompt = "internal ticket CANARY-TOKEN-778899";
    expect(redact(capture, [...DEFAULT_PATTERNS, "CANARY-TOKEN-\\d+"]).value.call.prompt).toBe(`internal ticket ${REDACTED}`);
    expect(() => redact(capture, ["x*"])).toThrow(/matches the empty string/);
  });

  it("refuses to return a capture in which a secret survives (a secret in an object key)", () => {
    const capture = minimal() as unknown as Record<string, any>;
    capture.client.requestParams = { [secret]: 1 };
    expect(() => redact(capture, DEFAULT_PATTERNS)).toThrow(/redaction incomplete: a secret is still present at \/client\/requestParams\/\[REDACTED\] \(a key\)/);
    try {
      redact(capture, DEFAULT_PATTERNS);
    } catch (error) {
      expect(String(error)).not.toContain(secret.slice(3));
    }
  });
});

describe("import", () => {
  it("--exact needs raw, and then asserts it", () => {
    const options = { repoRoot, scenarioPath: join(repoRoot, "fixtures/scenarios/captured/x.yaml"), capturePath: join(repoRoot, "fixtures/captured/x.json") };
    expect(() => captureToScenario(minimal(), { ...options, exact: true })).toThrow(/--exact needs the raw body text/);
    const withRaw = minimal();
    withRaw.exchanges[0].requests[0].raw = '{"model":"m1","messages":[{"role":"user","content":"hi"}]}';
    const text = captureToScenario(withRaw, { ...options, exact: true });
    expect(text).toContain("at: /requests/0/raw");
    expect(text.split("\n")[0]).toBe("# yaml-language-server: $schema=../../../conformance/schema/scenario.schema.json");
  });

  it("the committed scenarios are what importing their captures gives now (re-import after editing a capture)", async () => {
    for (const file of ragGoFiles) {
      const scenarioPath = join(defaultCapturedScenarioDir, "rag-go", file.replace(/^.*\//, "").replace(/\.json$/, ".yaml"));
      const { value } = redact(await readCaptureData(file), DEFAULT_PATTERNS);
      const expected = captureToScenario(value as Capture, { repoRoot, scenarioPath, capturePath: resolve(file) });
      expect(await readFile(scenarioPath, "utf8"), `${scenarioPath} is stale: npm run conformance -- import fixtures/captured/rag-go/*.json`).toBe(expected);
    }
  });
});

describe("the rag-go cases (ADR answer A6)", async () => {
  const lint = await lintPaths([join(defaultCapturedScenarioDir, "rag-go")]);
  const scenarios = lint.scenarios.map((scenario) => scenario.data);

  it("lint cleanly, are constructed with the A6 source, and are openai-only", () => {
    expect(lint.diagnostics).toEqual([]);
    expect(scenarios.length).toBe(ragGoFiles.length);
    for (const scenario of scenarios) {
      expect(scenario.provenance).toMatchObject({ kind: "constructed", source: "constructed from the ADR's description (answer A6)" });
      expect((scenario.matrix as string[]).every((path) => path.startsWith("openai-"))).toBe(true);
    }
  });

  it("cover the GLM shape (run and stream, with and without tools), the reasoning_effort gating, and at least seven tool-role transcripts", () => {
    const ids = scenarios.map((scenario) => scenario.id);
    expect(ids).toEqual(expect.arrayContaining(["captured.rag-go.glm.nothink", "captured.rag-go.glm.nothink-tools"]));
    expect(scenarios.find((scenario) => scenario.id === "captured.rag-go.glm.nothink")?.matrix).toEqual(["openai-run", "openai-stream"]);
    const gating = scenarios.filter((scenario) => scenario.id.startsWith("captured.rag-go.reasoning-effort."));
    expect(gating.length).toBeGreaterThanOrEqual(5);
    const toolRole = scenarios.filter((scenario) => scenario.id.startsWith("captured.rag-go.tool-role."));
    expect(toolRole.length).toBeGreaterThanOrEqual(7);
    for (const scenario of toolRole) {
      const observed = scenario.steps.find((step) => "op" in step && step.op === "client.observations");
      expect(observed?.expect?.some((assertion) => /^\/value\/transformInputs\/[1-9]/.test(assertion.at) && "equals" in assertion), scenario.id).toBe(true);
      expect(scenario.spec).toEqual(expect.arrayContaining(["client.body-transform.verbatim", "client.body-transform.input", "client.loop.openai-results"]));
    }
  });
});
