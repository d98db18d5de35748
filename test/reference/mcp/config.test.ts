import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { DEFAULT_TIMEOUT_MS, expandHeaders, McpConfigError, parseMcpConfig, readMcpConfigFile } from "../../../reference/index.ts";

const names = (input: unknown) => parseMcpConfig(input).servers.map((server) => server.name);
const one = (server: Record<string, unknown>) => parseMcpConfig({ s: server }).servers[0];

describe("parseMcpConfig wrappers (mcp.config.wrappers)", () => {
  it("looks for mcpServers first, then servers, then mcp", () => {
    const a = { command: ["x"] };
    expect(names({ mcpServers: { one: a }, servers: { two: a }, mcp: { three: a } })).toEqual(["one"]);
    expect(names({ servers: { two: a }, mcp: { three: a } })).toEqual(["two"]);
    expect(names({ mcp: { three: a } })).toEqual(["three"]);
  });
  it("skips the reserved keys of an unwrapped config and keeps config order", () => {
    const a = { command: ["x"] };
    expect(names({ zeta: a, builtins: { bash: false }, agents: {}, a2a: {}, mcpServer: {}, alpha: a })).toEqual(["zeta", "alpha"]);
  });
  it("refuses what is not an object of servers; an entry that is not an object is that server's problem", () => {
    expect(() => parseMcpConfig([])).toThrow(McpConfigError);
    expect(() => parseMcpConfig({ mcpServers: ["x"] })).toThrow(/"mcpServers" must be an object/);
    expect(parseMcpConfig({ s: "nope" }).servers[0]).toMatchObject({
      name: "s",
      enabled: true,
      problem: "the server entry must be an object",
    });
  });
});

describe("per-server fields", () => {
  it("infers remote from url and local otherwise (mcp.config.type)", () => {
    expect(one({ url: "http://127.0.0.1:1/mcp" }).type).toBe("remote");
    expect(one({ command: ["node", "s.mjs"] })).toMatchObject({ type: "local", command: ["node", "s.mjs"] });
    expect(one({ type: "websocket", url: "ws://x" })).toMatchObject({ type: "remote" });
    expect(one({ type: "stdio", command: ["x"] })).toMatchObject({ type: "local" });
    expect(one({ command: [] }).problem).toMatch(/command/);
    expect(one({ type: "remote" }).problem).toMatch(/url/);
    expect(one({ serverUrl: "http://127.0.0.1:1/mcp" })).toMatchObject({ type: "local", problem: expect.stringMatching(/command/) });
    expect(one({ url: 8080 }).problem).toMatch(/url must be a string/);
    expect(one({ command: { exe: "node" } }).problem).toMatch(/command/);
    expect(one({ command: ["x"], cwd: "" }).problem).toMatch(/cwd.*empty/);
    expect(one({ command: ["x"], cwd: "/tmp" }).problem).toBeUndefined();
  });
  it("reads a string command as the executable alone, without args (pinned decision 15)", () => {
    expect(one({ command: "/opt/srv/bin/server", args: ["--x"] })).toMatchObject({ command: ["/opt/srv/bin/server"] });
    expect(one({ command: "/opt/srv/bin/server" }).problem).toBeUndefined();
  });
  it("reads environment, with env as an alias", () => {
    expect(one({ command: ["x"], environment: { A: "1" } }).env).toEqual({ A: "1" });
    expect(one({ command: ["x"], env: { B: "2" } }).env).toEqual({ B: "2" });
    expect(one({ command: ["x"], env: { B: 2 } }).problem).toMatch(/environment.B/);
  });
  it("lets disabled:true win over enabled:true (mcp.config.enabled)", () => {
    expect(one({ command: ["x"] }).enabled).toBe(true);
    expect(one({ command: ["x"], enabled: false }).enabled).toBe(false);
    expect(one({ command: ["x"], enabled: true, disabled: true }).enabled).toBe(false);
    // An incomplete entry stays disabled: openServers never looks past that at its problem
    // (scenario mcp/config/disabled-bad-fields checks the status).
    for (const entry of [{ disabled: true }, { disabled: true, url: 5, timeout: "x" }]) expect(one(entry).enabled).toBe(false);
    // Only booleans count.
    expect(one({ command: ["x"], disabled: "true", enabled: "false" }).enabled).toBe(true);
  });
  it("defaults the timeout to 30000 ms (mcp.config.timeout)", () => {
    expect(DEFAULT_TIMEOUT_MS).toBe(30000);
    expect(one({ command: ["x"] }).timeout).toBe(30000);
    expect(one({ command: ["x"], timeout: 300 }).timeout).toBe(300);
    expect(one({ command: ["x"], timeout: 0 }).timeout).toBe(30000);
    expect(one({ command: ["x"], timeout: null }).timeout).toBe(30000);
    expect(one({ command: ["x"], timeout: -1 }).problem).toMatch(/timeout/);
  });
  it("keeps the tools map as given; absent or null means no map", () => {
    expect(one({ command: ["x"], tools: { a: true, nope: true } }).tools).toEqual({ a: true, nope: true });
    expect(one({ command: ["x"], tools: {} }).tools).toEqual({});
    expect(one({ command: ["x"] }).tools).toBeUndefined();
    expect(one({ command: ["x"], tools: null }).tools).toBeUndefined();
    expect(one({ command: ["x"], tools: { a: "yes" } }).problem).toMatch(/tools.a/);
  });
  it("never expands header templates while parsing (no secret in a parsed config)", () => {
    process.env.TNX_TEST_PARSE_SECRET = "parse-secret-123";
    const parsed = one({ url: "http://x/mcp", headers: { Authorization: "Bearer ${TNX_TEST_PARSE_SECRET}" } });
    expect(JSON.stringify(parsed)).not.toContain("parse-secret-123");
    delete process.env.TNX_TEST_PARSE_SECRET;
  });
});

describe("expandHeaders (mcp.config.headers-expand)", () => {
  it("expands ${VAR} from the environment and unset variables to the empty string", () => {
    expect(expandHeaders({ Authorization: "Bearer ${TOKEN}", X: "[${MISSING}]", Y: "$TOKEN" }, { TOKEN: "t0k" })).toEqual({
      Authorization: "Bearer t0k",
      X: "[]",
      Y: "$TOKEN",
    });
  });
});

describe("config files (mcp.config.file)", () => {
  const dir = mkdtempSync(join(tmpdir(), "tnx-config-"));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  it("parses a JSON file including each server's tools map", () => {
    const file = join(dir, "mcp.json");
    writeFileSync(file, JSON.stringify({ mcpServers: { srv: { command: ["x"], tools: { a: true, b: true } } } }));
    expect(readMcpConfigFile(file).servers[0]).toMatchObject({ name: "srv", tools: { a: true, b: true } });
  });
  it("reports a missing or malformed file as a config error", () => {
    expect(() => readMcpConfigFile(join(dir, "absent.json"))).toThrow(McpConfigError);
    const bad = join(dir, "bad.json");
    writeFileSync(bad, "{not json");
    expect(() => readMcpConfigFile(bad)).toThrow(/not JSON/);
  });
});
