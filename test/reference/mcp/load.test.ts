// loadMcp / createToolkit against the fixture servers: transports, naming, allowlist, execute, status,
// secrets, teardown.
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, afterEach, describe, expect, it } from "vitest";
import { applyEnvironment } from "../../../conformance/common/environment.ts";
import { FIXTURE_SECRET, mcpSubjectEnvironment } from "../../../fixtures/mcp-servers/index.ts";
import { createToolkit, openToolkits, type Toolkit } from "../../../reference/index.ts";
import { collectingLogger, eventually, fixturePool } from "./helpers.ts";

// The reference expands ${TOOLNEXUS_FIXTURE_SECRET} in headers from its process environment, as a subject would.
applyEnvironment(mcpSubjectEnvironment);
const pool = fixturePool();
const open: Toolkit[] = [];
afterEach(async () => {
  await Promise.all(open.splice(0).map((toolkit) => toolkit.close()));
  await pool.stopAll();
});

async function build(mcpConfig: Record<string, unknown> | string, extra: Record<string, unknown> = {}) {
  const { warnings, logger } = collectingLogger();
  const toolkit = await createToolkit({ mcpConfig, logger, ...extra });
  open.push(toolkit);
  return { toolkit, warnings, names: toolkit.tools().map((tool) => tool.name) };
}

describe.each(["stdio", "http", "sse"])("the abc server over %s", (transport) => {
  it("connects, names tools server_tool, normalizes schemas and executes with the original names", async () => {
    const srv = await pool.start("mcp-abc", { transport, names: { a: "get/x" } });
    const { toolkit, names } = await build({ mcpServers: { "my.srv": srv.vars.server } });
    expect(names).toEqual(["my_srv_get_x", "my_srv_b", "my_srv_c"]);
    expect(toolkit.mcpStatus()).toEqual({ "my.srv": "connected" });
    expect(toolkit.get("my_srv_c")).toMatchObject({
      description: "",
      inputSchema: { type: "object", properties: {}, additionalProperties: false },
    });
    expect(await toolkit.execute("my_srv_get_x", { text: "hi" })).toMatchObject({ output: "a:hi\na:done", isError: false });
    expect(await toolkit.execute("my_srv_b", { n: 21 })).toMatchObject({ output: JSON.stringify({ n: 21, doubled: 42 }), isError: false });
    expect(await toolkit.execute("my_srv_c", {})).toMatchObject({ output: "c failed\n\nas designed", isError: true });
    const failed = await toolkit.execute("my_srv_get_x", { text: "x", fail: true });
    expect(failed.isError).toBe(true);
    expect(failed.output).toContain("tool a failed as asked");
    const calls = (await srv.snap()).requests.filter((request) => request.method === "tools/call");
    // Beside the name and arguments only the progress token the call asks for (mcp.execute.timeout).
    expect(calls[0].params).toEqual({ name: "get/x", arguments: { text: "hi" }, _meta: { progressToken: expect.any(Number) } });
    await toolkit.close();
    const after = await eventually(srv.snap, (snap) => snap.connections.open === 0, 1500);
    expect(after.connections.open).toBe(0);
    expect(after.processes.alive).toEqual([]);
  });
});

describe("allowlist through the load (SPEC.md 2.5)", () => {
  const cases: [Record<string, boolean> | undefined, string[]][] = [
    [{ a: true, b: true }, ["srv_a", "srv_b"]],
    [{ c: false }, ["srv_a", "srv_b"]],
    [{ a: true, nope: true }, ["srv_a"]],
    [undefined, ["srv_a", "srv_b", "srv_c"]],
    [{}, []],
  ];
  it.each(cases)("tools %j exposes %j", async (tools, expected) => {
    const srv = await pool.start("mcp-abc", { transport: "http" });
    const { names, warnings, toolkit } = await build({
      srv: { ...(srv.vars.server as object), ...(tools === undefined ? {} : { tools }) },
    });
    expect(names).toEqual(expected);
    expect(toolkit.mcpStatus()).toEqual({ srv: "connected" });
    const unknownWarnings = warnings.filter((warning) => warning.includes("matched no tool"));
    expect(unknownWarnings).toHaveLength(tools && "nope" in tools ? 1 : 0);
    if (unknownWarnings.length) expect(unknownWarnings[0]).toContain("nope");
  });
  it("filters on original names before the prefix", async () => {
    const srv = await pool.start("mcp-abc", { names: { a: "get/x" } });
    const original = await build({ "my.srv": { ...(srv.vars.server as object), tools: { "get/x": true } } });
    expect(original.names).toEqual(["my_srv_get_x"]);
    const prefixed = await build({ "my.srv": { ...(srv.vars.server as object), tools: { my_srv_get_x: true } } });
    expect(prefixed.names).toEqual([]);
    expect(prefixed.warnings.join("\n")).toContain("my_srv_get_x");
  });
});

describe("failure isolation, order, disabled, secrets", () => {
  it("keeps config order and marks a bad server failed without failing the load", async () => {
    const good = await pool.start("mcp-abc", { transport: "http" });
    const bad = await pool.start("mcp-unreachable");
    const dead = await pool.start("mcp-exit-after-init");
    const off = await pool.start("mcp-abc", { transport: "http" });
    const { names, toolkit, warnings } = await build({
      zed: good.vars.server,
      bad: bad.vars.server,
      dead: dead.vars.server,
      off: { ...(off.vars.server as object), enabled: false },
    });
    expect(names).toEqual(["zed_a", "zed_b", "zed_c"]);
    expect(toolkit.mcpStatus()).toEqual({ zed: "connected", bad: "failed", dead: "failed", off: "disabled" });
    expect((await off.snap()).connections.total).toBe(0);
    expect(warnings.some((warning) => warning.includes('"bad" failed'))).toBe(true);
  });
  it("connects a server whose timeout is a fractional number of milliseconds (AbortSignal.timeout takes integers)", async () => {
    const good = await pool.start("mcp-abc", { transport: "http" });
    const { names, toolkit } = await build({ frac: { ...(good.vars.server as object), timeout: 5000.5 } });
    expect(toolkit.mcpStatus()).toEqual({ frac: "connected" });
    expect(names).toEqual(["frac_a", "frac_b", "frac_c"]);
  });
  it("fails an unusable entry alone, without contacting it, and warns what is wrong (mcp.connect.isolation)", async () => {
    const good = await pool.start("mcp-abc", { transport: "http" });
    const web = await pool.start("mcp-abc", { transport: "http" });
    const { names, toolkit, warnings } = await build({
      good: good.vars.server,
      windsurf: { serverUrl: web.vars.url },
      typo: "npx some-server",
    });
    expect(names).toEqual(["good_a", "good_b", "good_c"]);
    expect(toolkit.mcpStatus()).toEqual({ good: "connected", windsurf: "failed", typo: "failed" });
    expect((await web.snap()).connections.total).toBe(0);
    expect(warnings.join("\n")).toMatch(/"windsurf" failed: a local server needs `command`/);
    expect(warnings.join("\n")).toMatch(/"typo" failed: the server entry must be an object/);
  });
  it("sends expanded headers and never writes the secret into a warning", async () => {
    const srv = await pool.start("mcp-abc", { transport: "http", authHeader: true, server: { tools: { a: true, nope: true } } });
    const bad = await pool.start("mcp-unreachable", { authHeader: true });
    const { warnings } = await build({ srv: srv.vars.server, bad: bad.vars.server });
    const first = (await srv.snap()).http[0];
    expect(first.headers.authorization).toBe(`Bearer ${FIXTURE_SECRET}`);
    expect(first.headers["x-fixture-unset"]).toBe("[]");
    expect(warnings.length).toBeGreaterThanOrEqual(2);
    for (const warning of warnings) expect(warning).not.toContain(FIXTURE_SECRET);
  });
});

describe("toolkit assembly (SPEC.md 3)", () => {
  const dir = mkdtempSync(join(tmpdir(), "tnx-toolkit-"));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  it("takes a config file, appends extra tools, applies disableTools and the adapters", async () => {
    const srv = await pool.start("mcp-abc", { server: { tools: { a: true, b: true } } });
    const file = join(dir, "mcp.json");
    writeFileSync(file, JSON.stringify(srv.vars.config));
    const extra = { name: "echo", execute: (args: Record<string, unknown>) => ({ output: JSON.stringify(args), isError: false }) };
    const { toolkit, names } = await build(file, { extraTools: [extra], disableTools: ["srv_b"] });
    expect(names).toEqual(["srv_a", "echo"]);
    expect(toolkit.toOpenAI()[0]).toEqual({
      type: "function",
      function: { name: "srv_a", description: expect.any(String), parameters: toolkit.get("srv_a")?.inputSchema },
    });
    expect(toolkit.toAnthropic()[1]).toMatchObject({ name: "echo", input_schema: { type: "object" } });
    expect(toolkit.toGemini()[0].functionDeclarations.map((declaration) => declaration.name)).toEqual(["srv_a", "echo"]);
    expect(await toolkit.execute("srv_b", {})).toEqual({ output: "Unknown tool: srv_b", isError: true });
  });
  it("counts open toolkits and their connected servers (A9)", async () => {
    const before = openToolkits().open;
    const srv = await pool.start("mcp-abc", { transport: "http" });
    const { toolkit } = await build({ one: srv.vars.server, off: { url: "http://127.0.0.1:9/mcp", disabled: true } });
    expect(openToolkits()).toMatchObject({ open: before + 1 });
    expect(openToolkits().servers).toContain("one");
    expect(openToolkits().servers).not.toContain("off");
    await toolkit.close();
    expect(openToolkits().open).toBe(before);
  });
});
