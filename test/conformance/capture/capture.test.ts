// The capture format, redaction, and the committed captures and their scenarios.
import { toolnexusSuite } from "../../../conformance/suite/toolnexus.ts";
import { mkdtemp, readdir, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { describe, expect, it } from "vitest";
import { parse } from "yaml";
import { repoRoot } from "../../../conformance/common/paths.ts";
import { defaultCapturedDir, defaultCapturedScenarioDir, importCaptures } from "../../../conformance/capture/cli.ts";
import type { Capture } from "../../../conformance/schema/capture.types.ts";
import { captureProblems, readCaptureData } from "../../../conformance/capture/load.ts";
import { redact } from "../../../conformance/capture/redact.ts";
import {
  DEFAULT_PATTERNS,
  readPatternFile,
  defaultPatternFile,
  REDACTED,
  SAFE_HEADERS,
} from "../../../conformance/capture/redact-rules.ts";
import { captureToScenario } from "../../../conformance/capture/to-scenario.ts";
import { lintPaths } from "../../../conformance/scenario/lint.ts";

const ragGoDir = join(defaultCapturedDir, "rag-go");
const ragGoFiles = (await readdir(ragGoDir)).filter((name) => name.endsWith(".json")).map((name) => join(ragGoDir, name));

const minimal = (): Capture => ({
  id: "captured.test.minimal",
  title: "t",
  provenance: { source: "test", kind: "captured" },
  client: { style: "openai", model: "m1" },
  call: { prompt: "hi" },
  exchanges: [
    {
      stream: false,
      requests: [
        { method: "POST", path: "/v1/chat/completions", headers: {}, body: { model: "m1", messages: [{ role: "user", content: "hi" }] } },
      ],
    },
  ],
});

describe("capture format", () => {
  it("every committed capture is valid", async () => {
    expect(ragGoFiles.length).toBeGreaterThan(0);
    for (const file of ragGoFiles) expect(captureProblems(file, await readCaptureData(file))).toEqual([]);
  });

  it("rejects unknown keys, a missing provenance kind, and too few replies", () => {
    const bad = { ...minimal(), extra: 1 } as unknown;
    expect(captureProblems("x.json", bad).join("\n")).toContain(
      `x.json: (top level): unknown key "extra" (expected one of: $schema, id, title`,
    );
    const noKind = { ...minimal(), provenance: { source: "s" } } as unknown;
    expect(captureProblems("x.json", noKind).join("\n")).toContain(`x.json: /provenance: missing key "kind" (add "kind")`);
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
    const body = {
      model: "m1",
      messages: [
        { role: "user", content: `my key is ${secret}` },
        {
          role: "assistant",
          content: null,
          tool_calls: [{ id: "c1", type: "function", function: { name: "t", arguments: JSON.stringify({ token: secret }) } }],
        },
      ],
    };
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
    expect(() => redact(capture, DEFAULT_PATTERNS)).toThrow(
      /redaction incomplete: a secret is still present at \/client\/requestParams\/\[REDACTED\] \(a key\)/,
    );
    try {
      redact(capture, DEFAULT_PATTERNS);
    } catch (error) {
      expect(String(error)).not.toContain(secret.slice(3));
    }
  });
});

describe("fail-closed redaction", () => {
  const request = (capture: Record<string, any>) => capture.exchanges[0].requests[0];

  it("keeps the value of allowlisted headers only (plus --keep-header), whatever the others are called", () => {
    const capture = minimal() as unknown as Record<string, any>;
    request(capture).headers = {
      "Content-Type": "application/json",
      accept: "application/json",
      "User-Agent": "rag-go/1.4",
      "anthropic-version": "2023-06-01",
      "x-custom-token": "opaque-custom-credential",
      "x-request-context": "tenant 42",
    };
    const { value, redactedAt } = redact(capture, DEFAULT_PATTERNS);
    expect(request(value).headers).toEqual({
      "Content-Type": "application/json",
      accept: "application/json",
      "User-Agent": "rag-go/1.4",
      "anthropic-version": "2023-06-01",
      "x-custom-token": REDACTED,
      "x-request-context": REDACTED,
    });
    expect(redactedAt).toContain("/exchanges/0/requests/0/headers/x-custom-token");
    expect(request(redact(capture, DEFAULT_PATTERNS, { keepHeaders: ["X-Request-Context"] }).value).headers["x-request-context"]).toBe(
      "tenant 42",
    );
    expect(SAFE_HEADERS).toEqual(expect.arrayContaining(["content-type", "accept", "user-agent"]));
  });

  it("replaces every query-string (and fragment) value, in the path and in any URL, and the same value anywhere else", () => {
    const capture = minimal() as unknown as Record<string, any>;
    request(capture).path = "/v1/chat/completions?api-key=opaque-query-credential&api-version=2024-10&bare#frag=f1";
    capture.provenance.source = "proxy log of https://llm.example.test/v1/chat/completions?api-key=opaque-query-credential";
    capture.description = "the key opaque-query-credential came in the URL";
    const { value, redactedAt } = redact(capture, DEFAULT_PATTERNS);
    expect(request(value).path).toBe(`/v1/chat/completions?api-key=${REDACTED}&api-version=${REDACTED}&${REDACTED}#frag=${REDACTED}`);
    expect(value.provenance.source).toBe(`proxy log of https://llm.example.test/v1/chat/completions?api-key=${REDACTED}`);
    expect(value.description).toBe(`the key ${REDACTED} came in the URL`);
    expect(redactedAt).toEqual(expect.arrayContaining(["/exchanges/0/requests/0/path", "/provenance/source", "/description"]));
    expect(JSON.stringify(value)).not.toContain("opaque-query");
  });

  it("redacts values under credential-named keys in inputs, bodies and raw text alike, and not max_tokens or a schema's property names", () => {
    const capture = minimal() as unknown as Record<string, any>;
    const params = {
      x_api_key: "opaque-body-credential",
      sessionId: "s1",
      max_tokens: 10,
      metadata: { auth: { user: "u", pass: "p" }, ticket: "T-1" },
    };
    const tool = {
      name: "login",
      description: "d",
      inputSchema: { type: "object", properties: { password: { type: "string" } }, required: ["password"] },
    };
    capture.client.requestParams = params;
    capture.toolkit = { extraTools: [{ ...tool, result: { output: "ok", isError: false } }] };
    capture.upstream = { replies: [{ toolCalls: [{ id: "c1", name: "login", args: { password: "hunter2" } }] }, { text: "ok" }] };
    const body = {
      model: "m1",
      messages: [
        { role: "user", content: "hi" },
        {
          role: "assistant",
          content: null,
          tool_calls: [{ id: "c1", type: "function", function: { name: "login", arguments: JSON.stringify({ password: "hunter2" }) } }],
        },
      ],
      tools: [{ type: "function", function: { name: tool.name, description: tool.description, parameters: tool.inputSchema } }],
      ...params,
    };
    // Pretty-printed, with a number under a credential key: the raw text keeps its layout.
    request(capture).body = { ...body, token: 1234 };
    request(capture).raw = JSON.stringify({ ...body, token: 1234 }, null, 1);
    const { value, redactedAt } = redact(capture, DEFAULT_PATTERNS);
    const redactedParams = {
      x_api_key: REDACTED,
      sessionId: REDACTED,
      max_tokens: 10,
      metadata: { auth: { user: REDACTED, pass: REDACTED }, ticket: "T-1" },
    };
    expect(value.client.requestParams).toEqual(redactedParams);
    expect(value.toolkit.extraTools[0].inputSchema).toEqual(tool.inputSchema);
    expect(value.upstream.replies[0].toolCalls[0].args).toEqual({ password: REDACTED });
    expect(request(value).body).toMatchObject({ ...redactedParams, token: REDACTED, tools: body.tools });
    expect(request(value).body.messages[1].tool_calls[0].function.arguments).toBe(JSON.stringify({ password: REDACTED }));
    expect(request(value).raw).toBe(JSON.stringify(request(value).body, null, 1));
    expect(redactedAt).toEqual(
      expect.arrayContaining(["/client/requestParams/x_api_key", "/exchanges/0/requests/0/body/token", "/exchanges/0/requests/0/raw"]),
    );
    expect(JSON.stringify(value)).not.toMatch(/opaque-body|hunter2|"s1"/);
    // More credential words by option.
    expect(redact(capture, DEFAULT_PATTERNS, { secretKeys: ["ticket"] }).value.client.requestParams.metadata.ticket).toBe(REDACTED);
  });

  it("redacts a body transform's patch value by the key it writes", () => {
    const capture = minimal() as unknown as Record<string, any>;
    capture.client.bodyTransform = {
      patch: [
        { op: "add", path: "/x_api_key", value: "k1" },
        { op: "add", path: "/note", value: "kept" },
      ],
    };
    const { value } = redact(capture, DEFAULT_PATTERNS);
    expect(value.client.bodyTransform.patch.map((op: { value: string }) => op.value)).toEqual([REDACTED, "kept"]);
  });
});

describe("import", () => {
  it("--exact needs raw, and then asserts it", () => {
    const options = {
      repoRoot,
      scenarioPath: join(repoRoot, "fixtures/scenarios/captured/x.yaml"),
      scenarioId: "captured/x",
      capturePath: join(repoRoot, "fixtures/captured/x.json"),
    };
    expect(() => captureToScenario(minimal(), { ...options, exact: true })).toThrow(/--exact needs the raw body text/);
    const withRaw = minimal();
    withRaw.exchanges[0].requests[0].raw = '{"model":"m1","messages":[{"role":"user","content":"hi"}]}';
    const text = captureToScenario(withRaw, { ...options, exact: true });
    expect(text).toContain("at: /requests/0/raw");
    expect(text.split("\n")[0]).toBe("# yaml-language-server: $schema=../../../conformance/schema/scenario.schema.json");
  });

  it("passes --keep-header and --secret-key to the redaction of the scenario and of the --capture-out capture", async () => {
    const work = await mkdtemp(join(tmpdir(), "tnc-import-"));
    try {
      const capture = minimal() as unknown as Record<string, any>;
      capture.exchanges[0].requests[0].headers = { "x-trace": "trace-1", "x-other": "other-1" };
      capture.client.requestParams = { ticket: "T-1" };
      capture.exchanges[0].requests[0].body = { ...capture.exchanges[0].requests[0].body, ticket: "T-1" };
      await writeFile(join(work, "c.json"), JSON.stringify(capture));
      const lines: string[] = [];
      const [scenarioPath] = await importCaptures(
        [join(work, "c.json")],
        { out: join(work, "out"), captureOut: join(work, "kept"), keepHeader: ["X-Trace"], secretKey: ["ticket"] },
        (line) => lines.push(line),
      );
      const kept = JSON.parse(await readFile(join(work, "kept", "c.json"), "utf8"));
      expect(kept.exchanges[0].requests[0].headers).toEqual({ "x-trace": "trace-1", "x-other": REDACTED });
      expect(kept.client.requestParams).toEqual({ ticket: REDACTED });
      expect(await readFile(scenarioPath, "utf8")).not.toContain("T-1");
      expect(lines.join("\n")).toContain("/client/requestParams/ticket");
    } finally {
      await rm(work, { recursive: true, force: true });
    }
  });

  it("checks the endpoint path without the query string", () => {
    const options = {
      repoRoot,
      scenarioPath: join(repoRoot, "fixtures/scenarios/captured/x.yaml"),
      scenarioId: "captured/x",
      capturePath: join(repoRoot, "fixtures/captured/x.json"),
    };
    const withQuery = minimal();
    withQuery.exchanges[0].requests[0].path = `/openai/deployments/d1/chat/completions?api-version=${REDACTED}`;
    const steps = parse(captureToScenario(withQuery, options)).steps as { expect?: { at: string; matches?: string }[] }[];
    expect(steps.flatMap((step) => step.expect ?? []).find((assertion) => assertion.at === "/requests/0/path")?.matches).toBe(
      "/chat/completions$",
    );
  });

  it("the committed scenarios are what importing their captures gives now (re-import after editing a capture)", async () => {
    for (const file of ragGoFiles) {
      const scenarioPath = join(defaultCapturedScenarioDir, "rag-go", file.replace(/^.*\//, "").replace(/\.json$/, ".yaml"));
      const { value } = redact(await readCaptureData(file), DEFAULT_PATTERNS);
      const scenarioId = `captured/rag-go/${file.replace(/^.*\//, "").replace(/\.json$/, "")}`;
      const expected = captureToScenario(value as Capture, { repoRoot, scenarioPath, scenarioId, capturePath: resolve(file) });
      expect(
        await readFile(scenarioPath, "utf8"),
        `${scenarioPath} is stale: npm run conformance -- import fixtures/captured/rag-go/*.json`,
      ).toBe(expected);
    }
  });
});

describe("the rag-go cases (ADR answer A6)", async () => {
  const lint = await lintPaths([join(defaultCapturedScenarioDir, "rag-go")], toolnexusSuite);
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
    expect(ids).toEqual(expect.arrayContaining(["captured/rag-go/glm-nothink", "captured/rag-go/glm-nothink-tools"]));
    expect(scenarios.find((scenario) => scenario.id === "captured/rag-go/glm-nothink")?.matrix).toEqual(["openai-run", "openai-stream"]);
    const gating = scenarios.filter((scenario) => scenario.id.startsWith("captured/rag-go/reasoning-effort-"));
    expect(gating.length).toBeGreaterThanOrEqual(5);
    const toolRole = scenarios.filter((scenario) => scenario.id.startsWith("captured/rag-go/tool-role-"));
    expect(toolRole.length).toBeGreaterThanOrEqual(7);
    for (const scenario of toolRole) {
      const observed = scenario.steps.find((step) => "op" in step && step.op === "client.observations");
      expect(
        observed?.expect?.some((assertion) => /^\/value\/transformInputs\/[1-9]/.test(assertion.at) && "equals" in assertion),
        scenario.id,
      ).toBe(true);
      expect(scenario.spec).toEqual(
        expect.arrayContaining(["client.body-transform.verbatim", "client.body-transform.input", "client.loop.openai-results"]),
      );
    }
  });
});
