// The CLI end to end, as a port's CI uses it: exit status, reports on disk, refusal on lint errors.
import { execFile } from "node:child_process";
import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { validateReport } from "../../conformance/report/json-report.ts";

const exec = promisify(execFile);
const root = fileURLToPath(new URL("../../", import.meta.url));
let dir: string;

async function cli(...args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  try {
    const { stdout, stderr } = await exec(process.execPath, ["--import", "tsx", join(root, "conformance/cli/main.ts"), ...args], { cwd: root, timeout: 60_000 });
    return { code: 0, stdout, stderr };
  } catch (error) {
    const failed = error as { code: number; stdout: string; stderr: string };
    return { code: failed.code, stdout: failed.stdout, stderr: failed.stderr };
  }
}

const scenario = (id: string, expected: string) => `id: ${id}
title: t
spec: [core.unknown-tool]
steps:
  - op: toolkit.create
    with: {handle: tk}
  - op: toolkit.execute
    with: {toolkit: tk, name: nope}
    expect:
      - {at: /value/output, equals: "${expected}"}
`;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), "tnc-cli-"));
  await writeFile(join(dir, "good.yaml"), scenario("t.good", "Unknown tool: nope"));
  await writeFile(join(dir, "bad.yaml"), scenario("t.bad", "Unknown tool: something else"));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe("conformance CLI", () => {
  it("exits 0 when everything passes", async () => {
    const { code, stdout } = await cli("run", join(dir, "good.yaml"));
    expect(code).toBe(0);
    expect(stdout).toMatch(/PASS\s+reference t\.good/);
    expect(stdout.trim().split("\n").at(-1)).toBe("conformance: 1 passed, 0 failed, 0 skipped");
  });

  it("exits 1 on an unexpected failure, shows the diff, and writes reports that validate", async () => {
    const json = join(dir, "out/report.json");
    const junit = join(dir, "out/junit.xml");
    const { code, stdout } = await cli("run", dir, "--json", json, "--junit", junit, "--matrix", join(dir, "out/m.md"), "--html", join(dir, "out/m.html"));
    expect(code).toBe(1);
    expect(stdout).toContain('/value/output: expected "Unknown tool: something else", got "Unknown tool: nope"');
    const report = JSON.parse(await readFile(json, "utf8"));
    expect(validateReport(report), JSON.stringify(validateReport.errors)).toBe(true);
    expect(report.results.map((result: { scenario: string; status: string }) => `${result.scenario}:${result.status}`).sort()).toEqual(["t.bad:fail", "t.good:pass"]);
    expect(await readFile(junit, "utf8")).toContain('failures="1"');
    expect(await readFile(join(dir, "out/m.md"), "utf8")).toContain("| `t.bad` | ❌ |");
  });

  it("refuses to run, exit 2, while lint finds problems, and says where", async () => {
    await writeFile(join(dir, "broken.yaml"), scenario("t.broken", "x").replace("toolkit.create", "toolkit.creat"));
    const { code, stderr } = await cli("run", join(dir, "broken.yaml"));
    expect(code).toBe(2);
    expect(stderr).toMatch(/broken\.yaml:5:9: unknown operation "toolkit\.creat"/);
    expect(stderr).toContain("refusing to run: lint found 1 problem(s)");
    await rm(join(dir, "broken.yaml"));
  });

  it("the package bin runs the same CLI", async () => {
    const { stdout } = await exec(process.execPath, [join(root, "conformance/cli/bin.mjs"), "list", join(dir, "good.yaml")], { cwd: root, timeout: 60_000 });
    expect(stdout).toMatch(/^t\.good\tcore\.unknown-tool\t/);
  });

  it("an explicitly requested runner that cannot start fails the run, with the reason", async () => {
    const { code, stdout, stderr } = await cli("run", join(dir, "good.yaml"), "--runner-cmd", "exit 7");
    expect(code).toBe(1);
    expect(stdout).toMatch(/UNAVAILABLE custom: runner exited \(code 7\)/);
    expect(stderr).toContain("custom is unavailable");
  });
});
