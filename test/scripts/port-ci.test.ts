// A port's own CI, end to end, exactly as the reusable workflow runs it: `npm pack` this harness,
// install the tarball into an empty folder outside the repository (scripts/port-ci.sh), build the
// Python port from its own source (the sdist of its pinned release, scripts/python-sdist.sh), run
// scenarios and gate on the shipped baseline. The script's own behaviour (exit status, reports, which
// baseline gates, an unavailable source) is what is tested here, on two scenarios (--filter): one the
// port passes, one its baseline lists. The whole suite against python@source is CI's conformance job
// (scripts/ci-conformance.sh), gated on the same baseline; running it here too proved nothing more.
import { execFile } from "node:child_process";
import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, it } from "vitest";
import { obtainableHere } from "../obtainable.ts";
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

/** The unpacked sdist (scripts/python-sdist.sh), fetched once for the tests that run at once; when pip cannot get it, they fail with pip's words. */
let sdistFolder: Promise<string> | undefined;
const pythonSdist = () => (sdistFolder ??= fetchPythonSdist());

async function fetchPythonSdist(): Promise<string> {
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

// The two port-ci runs below that build the port each install the harness and build the port in a folder of their own
// (mostly npm, pip and process waits), so they run at once.
// The python port's source and its dependencies come from pip's package index: where this machine
// cannot reach it, the two tests that build it skip with the decision's words (test/obtainable.ts).
const pythonSource = obtainableHere("python@source");

describe.concurrent("the packed harness gates a port from outside this repository", () => {
  it("the tarball carries no build output", async ({ expect }) => {
    const { stdout } = await exec("tar", ["-tzf", tarball]);
    expect(stdout).toContain("package/runners/python/install-source.sh");
    expect(stdout).not.toMatch(/\/(\.build|\.venv|target|node_modules)\//);
  });

  // core/unknown-tool passes; core/tool-result is listed in runners/python/expected-failures.source.yaml.
  const filter = "core/{unknown-tool,tool-result}";

  it(
    "python built from the 0.21.0 sdist: exit 0 against its shipped baseline, with JUnit, JSON and HTML reports",
    async ({ expect, skip }) => {
      skip(!pythonSource.here, pythonSource.note);
      const sdist = await pythonSdist();
      const out = join(dir, "out");
      const { code, output } = await portCi("--runner", "python", "--source", sdist, "--filter", filter, "--out", out);
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
      const outcomes = Object.fromEntries(
        report.results.map((result: { scenario: string; status: string; outcome: string }) => [
          result.scenario,
          [result.status, result.outcome],
        ]),
      );
      // The shipped baseline gated the run: the listed failure is expected, not unexpected.
      expect(outcomes).toEqual({ "core/unknown-tool": ["pass", "as-expected"], "core/tool-result": ["fail", "as-expected"] });
      const junit = await readFile(join(out, "junit.xml"), "utf8");
      expect(junit).toContain("toolnexus conformance: python@source");
      expect(junit).toMatch(/<testcase[^>]*name="core\/tool-result"[^>]*>\s*<skipped/);
      expect(await readFile(join(out, "matrix.html"), "utf8")).toContain("python@source");
      expect(await readFile(join(out, "matrix.md"), "utf8")).toContain("core/tool-result");
    },
    5 * 60_000,
  );

  it(
    "--baseline replaces the shipped baseline: with an empty one, the same listed failure fails the run",
    async ({ expect, skip }) => {
      skip(!pythonSource.here, pythonSource.note);
      const sdist = await pythonSdist();
      const empty = join(dir, "empty-baseline.yaml");
      await writeFile(empty, "subject: python@source\nentries: []\n");
      const out = join(dir, "out-empty-baseline");
      const { code, output } = await portCi("--runner", "python", "--source", sdist, "--filter", filter, "--baseline", empty, "--out", out);
      expect(code, output.slice(-4000)).toBe(1);
      const report = JSON.parse(await readFile(join(out, "report.json"), "utf8"));
      expect(report.results.find((result: { scenario: string }) => result.scenario === "core/tool-result")).toMatchObject({
        status: "fail",
        outcome: "unexpected-failure",
      });
    },
    5 * 60_000,
  );

  it("a source folder that does not exist: bad input, exit 2 before installing anything, naming the folder", async ({ expect }) => {
    const missing = join(dir, "no-such-checkout");
    const { code, output } = await portCi("--runner", "python", "--source", missing, "--out", join(dir, "out-missing"));
    expect(code).toBe(2);
    expect(output).toContain(`port-ci: --source ${missing}: no such folder`);
    expect(output).not.toContain("installing the harness");
  });
});
