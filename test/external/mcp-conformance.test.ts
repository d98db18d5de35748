// The official MCP conformance suite's gate (scripts/mcp-conformance): its baseline is strict and names
// file:line, and the gate fails when the reference's loader is broken. The breakage is made in a copy of
// reference/ under out/ (module resolution still finds the root's packages), never in reference/ itself.
import { spawn } from "node:child_process";
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, describe, expect, it } from "vitest";
import { leftoverProcesses } from "../../scripts/check-leftovers.ts";
import { judge, loadBaseline } from "../../scripts/mcp-conformance/baseline.ts";

const root = fileURLToPath(new URL("../..", import.meta.url));
const tsx = createRequire(import.meta.url).resolve("tsx/cli");

describe("mcp-conformance baseline", () => {
  const yaml = (text: string) => loadBaseline("b.yaml", text);

  it("names file and line of what is wrong", () => {
    expect(() => yaml("pass: [a]\nout-of-scope:\n  b: ''\n")).toThrow(
      `b.yaml:3: out-of-scope: "b": expected a reason (a non-empty string)`,
    );
    expect(() => yaml("pass:\n  - a\nout-of-scope:\n  a: why\n")).toThrow(`b.yaml:4: scenario "a" is listed twice (first at line 2)`);
    expect(() => yaml("pass: [a]\nskip: [b]\n")).toThrow(`b.yaml:2: unknown key "skip": expected pass or out-of-scope`);
    expect(() => yaml("pass: a\n")).toThrow("b.yaml:1: pass: expected a list of scenario names");
    expect(() => yaml("pass: [a\n")).toThrow(/^b\.yaml:\d+: /);
  });

  it("fails on an unclassified scenario, a stale entry, an out-of-scope pass and an in-scope failure", () => {
    const baseline = yaml(
      "pass:\n  - initialize\n  - tools_call\nout-of-scope:\n  auth/x: out of scope for a tool loader\n  gone: out of scope for a tool loader\n",
    );
    const run = (scenario: string, passed: boolean) => ({ scenario, passed, detail: passed ? [] : ["check c: FAILURE: why"], ms: 1000 });
    const { lines, problems } = judge(
      baseline,
      ["initialize", "tools_call", "auth/x", "new-one"],
      [run("initialize", true), run("tools_call", false), run("auth/x", true)],
    );
    expect(lines).toEqual(["PASS   initialize 1.0 s", "FAIL   tools_call 1.0 s", "       check c: FAILURE: why", "XPASS  auth/x 1.0 s"]);
    expect(problems).toEqual([
      `unclassified scenario "new-one": the suite lists it, b.yaml does not; add it under pass (a tool loader must pass it) or out-of-scope (with the reason)`,
      `stale baseline entry "gone" (b.yaml:6): the suite lists no such client scenario; remove it`,
      `"tools_call" failed, and b.yaml:3 says it must pass`,
      `stale baseline entry "auth/x" (b.yaml:5): it passed; move it under pass`,
    ]);
    expect(
      judge(baseline, ["initialize", "tools_call", "auth/x", "gone"], [run("initialize", true), run("auth/x", false)]).problems,
    ).toEqual([]);
  });

  it("the checked-in baseline reads, every out-of-scope entry giving the tool-loader reason", () => {
    const baseline = loadBaseline(join(root, "external/mcp-conformance/baseline.yaml"));
    expect([...baseline.pass.keys()]).toEqual(["initialize", "tools_call", "sse-retry", "auth/resource-mismatch"]);
    for (const { reason } of baseline.outOfScope.values()) expect(reason).toMatch(/^out of scope for a tool loader/);
  });
});

/** Run the gate, bounded; resolves with its exit status and output. */
function gate(args: string[], timeoutMs = 150_000): Promise<{ code: number | null; output: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [tsx, join(root, "scripts/mcp-conformance/run.ts"), ...args], {
      cwd: root,
      detached: true,
      stdio: ["ignore", "pipe", "pipe"],
    });
    let output = "";
    child.stdout.on("data", (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on("data", (chunk: Buffer) => (output += chunk.toString()));
    const timer = setTimeout(() => process.kill(-child.pid!, "SIGKILL"), timeoutMs);
    child.on("close", (code) => {
      clearTimeout(timer);
      resolve({ code, output });
    });
  });
}

/** Copy reference/ and the client into a folder under out/, applying each [file, from, to] edit (each must match). */
function mutant(edits: [string, string, string][]): string {
  mkdirSync(join(root, "out"), { recursive: true });
  const dir = mkdtempSync(join(root, "out/tnc-mutant-"));
  cpSync(join(root, "reference"), join(dir, "reference"), { recursive: true });
  cpSync(join(root, "external/mcp-conformance/client.ts"), join(dir, "external/mcp-conformance/client.ts"));
  for (const [file, from, to] of edits) {
    const path = join(dir, file);
    const text = readFileSync(path, "utf8");
    if (!text.includes(from)) throw new Error(`${file} no longer contains ${JSON.stringify(from)}: update this mutation`);
    writeFileSync(path, text.replace(from, to));
  }
  return dir;
}

describe("mcp-conformance gate against a reference broken on purpose", () => {
  const made: string[] = [];
  afterAll(() => made.forEach((dir) => rmSync(dir, { recursive: true, force: true })));

  it("fails initialize when clientInfo has no version, tools_call when the call uses the exposed name", async () => {
    const dir = mutant([
      ["reference/mcp/connect.ts", `version: "0.16.0" }`, `version: "" }`],
      [
        "reference/mcp/load.ts",
        "callMcpTool(connection, listedTool.name, args, context)",
        "callMcpTool(connection, exposedName(outcome.server.name, listedTool.name), args, context)",
      ],
    ]);
    made.push(dir);
    const out = mkdtempSync(join(tmpdir(), "tnc-mcp-records-"));
    made.push(out);
    const { code, output } = await gate([
      "--scenario",
      "initialize",
      "tools_call",
      "--out",
      out,
      "--client-command",
      `${process.execPath} ${tsx} ${join(dir, "external/mcp-conformance/client.ts")}`,
    ]);
    expect(output).toContain("FAIL   initialize");
    expect(output).toContain("check mcp-client-initialization: FAILURE: Client version missing");
    expect(output).toContain("FAIL   tools_call");
    expect(output).toContain("check tool-add-numbers: FAILURE: Tool was not called by client");
    expect(output).toContain(`"tools_call" failed, and external/mcp-conformance/baseline.yaml:12 says it must pass`);
    expect(code).toBe(1);
  }, 200_000);

  it("kills the whole process group when the suite outlives its bound (a client that ignores SIGTERM hangs the suite)", async () => {
    const dir = mkdtempSync(join(tmpdir(), "tnc-mcp-hang-"));
    made.push(dir);
    // The marker says the client was up (SIGTERM ignored) before the suite's own timeout fired at it.
    const marker = join(dir, "started");
    writeFileSync(
      join(dir, "hang.mjs"),
      `import { writeFileSync } from "node:fs"; process.on("SIGTERM", () => {}); writeFileSync(${JSON.stringify(marker)}, ""); setInterval(() => {}, 1000);`,
    );
    const started = Date.now();
    const { code, output } = await gate([
      "--scenario",
      "initialize",
      "--timeout",
      "4000",
      "--grace",
      "2000",
      "--out",
      join(dir, "out"),
      "--client-command",
      `${process.execPath} ${join(dir, "hang.mjs")}`,
    ]);
    expect(existsSync(marker), "the hanging client never started within the suite's 4 s: the machine is too loaded for this test").toBe(
      true,
    );
    expect(output).toContain("FAIL   initialize");
    expect(output).toContain("the suite did not finish within 6000 ms: its process group was killed");
    expect(code).toBe(1);
    expect(Date.now() - started).toBeLessThan(60_000);
    expect(leftoverProcesses().filter(({ command }) => command.includes(dir))).toEqual([]);
  }, 90_000);
});
