// A port's own CI, end to end, exactly as the reusable workflow runs it: `npm pack` this harness,
// install the tarball into an empty folder outside the repository (scripts/port-ci.sh), build the
// Python port from its own source (the sdist of its pinned release, scripts/python-sdist.sh), run
// every scenario and gate on the shipped baseline.
import { execFile } from "node:child_process";
import { mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { validateReport } from "../../conformance/report/json-report.ts";
import { hashPortFolder } from "../../conformance/subjects/port-source.ts";

const exec = promisify(execFile);
const root = fileURLToPath(new URL("../../", import.meta.url));
let dir: string;
let tarball: string;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), "tnc-port-ci-test-"));
  const { stdout } = await exec("npm", ["pack", "--pack-destination", dir, "--loglevel=error"], { cwd: root, timeout: 120_000 });
  tarball = join(dir, stdout.trim().split("\n").at(-1)!);
}, 180_000);

afterAll(async () => {
  if (dir) await rm(dir, { recursive: true, force: true });
});

async function portCi(...args: string[]): Promise<{ code: number; output: string }> {
  try {
    const { stdout, stderr } = await exec("bash", [join(root, "scripts/port-ci.sh"), "--harness", tarball, ...args], {
      cwd: dir,
      timeout: 15 * 60_000,
      maxBuffer: 64 * 1024 * 1024,
    });
    return { code: 0, output: stdout + stderr };
  } catch (error) {
    const failed = error as { code: number; stdout: string; stderr: string };
    return { code: failed.code, output: failed.stdout + failed.stderr };
  }
}

/** The unpacked sdist (scripts/python-sdist.sh); when pip cannot get it, the test fails with pip's words. */
async function pythonSdist(): Promise<string> {
  try {
    const { stdout } = await exec("bash", [join(root, "scripts/python-sdist.sh")], { cwd: root, timeout: 10 * 60_000 });
    return stdout.trim();
  } catch (error) {
    const failed = error as { stdout?: string; stderr?: string; message: string };
    throw new Error(
      `scripts/python-sdist.sh could not provide the python port's source: ${failed.stderr || failed.stdout || failed.message}`,
    );
  }
}

describe("the packed harness gates a port from outside this repository", () => {
  it("the tarball carries no build output", async () => {
    const { stdout } = await exec("tar", ["-tzf", tarball]);
    expect(stdout).toContain("package/runners/python/install-source.sh");
    expect(stdout).not.toMatch(/\/(\.build|\.venv|target|node_modules)\//);
  });

  it(
    "python built from the 0.21.0 sdist: exit 0 against its baseline, with JUnit, JSON and HTML reports",
    async () => {
      const sdist = await pythonSdist();
      const out = join(dir, "out");
      const { code, output } = await portCi("--runner", "python", "--source", sdist, "--out", out);
      expect(code, output.slice(-4000)).toBe(0);
      const report = JSON.parse(await readFile(join(out, "report.json"), "utf8"));
      expect(validateReport(report)).toBe(true);
      expect(report.subjects).toHaveLength(1);
      expect(report.subjects[0]).toMatchObject({
        name: "python@source",
        version: "0.21.0",
        available: true,
        build: { mode: "source", path: sdist, contentHash: await hashPortFolder(sdist) },
      });
      // An sdist carries no commit, and the report claims none.
      expect(report.subjects[0].build).not.toHaveProperty("commit");
      expect(report.results.filter((result: { status: string }) => result.status === "pass").length).toBeGreaterThanOrEqual(300);
      expect(await readFile(join(out, "junit.xml"), "utf8")).toContain("toolnexus conformance: python@source");
      expect(await readFile(join(out, "matrix.html"), "utf8")).toContain("python@source");
    },
    15 * 60_000,
  );

  it(
    "a source folder that does not exist: the run fails, naming the folder",
    async () => {
      const missing = join(dir, "no-such-checkout");
      const { code, output } = await portCi("--runner", "python", "--source", missing, "--out", join(dir, "out-missing"));
      expect(code).toBe(1);
      expect(output).toContain(`python@source is unavailable: source checkout ${missing} not found`);
    },
    5 * 60_000,
  );
});
