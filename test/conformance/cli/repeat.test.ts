// run --repeat N end to end: a planted flaky scenario (the fake runner answers "flip" and "flop" in
// turn, counted across its processes) is reported flaky with its rate in the console, the JSON report,
// JUnit and the Markdown matrix, and fails the gate unless its baseline entry is strict: false; on lanes
// the results stay in scenario order; the in-process reference on a few scenarios shows none flaky; one
// run writes the report it always wrote (no repeat anywhere).
import { mkdir, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import type { Report } from "../../../conformance/schema/report.types.ts";
import { validateReport } from "../../../conformance/report/json-report.ts";
import { echoScenario, runCli } from "../helpers.ts";

const root = fileURLToPath(new URL("../../../", import.meta.url));
const runnerCmd = `exec ${process.execPath} ${join(root, "test/conformance/fake-runner.mjs")}`;
const check = "step 1 (runner.echo) /value/value";
let dir: string;
let turns: string;

const echo = echoScenario;

const baseline = (strict: boolean, reason: string) => `subject: custom
entries:
  - scenario: flip
    status: fail
    checks:
      - ${check}
${strict ? "" : "    strict: false\n"}    clause: core.tool-result
    classification: port-bug
    reason: '${reason}'
`;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), "tnc-repeat-"));
  await mkdir(join(dir, "scenarios"));
  await writeFile(join(dir, "scenarios", "flip.yaml"), echo("flip", "flip"));
  await writeFile(join(dir, "scenarios", "steady.yaml"), echo("steady", "same"));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});
beforeEach(async () => {
  // A fresh turn counter: the first "flip" of each test is answered "flip".
  turns = await mkdtemp(join(dir, "turns-"));
});

const readReport = async (file: string) => {
  const report = JSON.parse(await readFile(file, "utf8")) as Report;
  expect(validateReport(report), JSON.stringify(validateReport.errors)).toBe(true);
  return report;
};

async function flipRun(name: string, ...args: string[]) {
  const json = join(dir, `${name}.json`);
  const env = { FAKE_RUNNER_FLIP_DIR: turns, GITHUB_STEP_SUMMARY: join(dir, `${name}.summary.md`) };
  const run = await runCli(["run", join(dir, "scenarios", "flip.yaml"), "--runner-cmd", runnerCmd, "--json", json, ...args], 90_000, env);
  return { ...run, report: await readReport(json) };
}

describe("run --repeat", () => {
  it("a planted flaky scenario is reported flaky with its rate, and fails the gate", async () => {
    const junit = join(dir, "flip.xml");
    const matrix = join(dir, "flip.md");
    const html = join(dir, "flip.html");
    const { code, stdout, report } = await flipRun(
      "flip",
      "--repeat",
      "4",
      "--jobs",
      "1",
      "--junit",
      junit,
      "--matrix",
      matrix,
      "--html",
      html,
    );
    expect(code, stdout).toBe(1);
    expect(report.repeat).toBe(4);
    expect(report.results).toHaveLength(1);
    const [result] = report.results;
    expect(result.outcome).toBe("flaky");
    expect(result.repeat).toEqual({
      runs: 4,
      passed: 2,
      statuses: { pass: 2, fail: 2 },
      flaky: true,
      variedChecks: [{ check, failed: 2 }],
    });
    // The result shown is a failing run's, so its failure (what the port answered) is in the report.
    expect(result.status).toBe("fail");
    expect(result.failures?.[0].check).toBe(check);
    expect(stdout).toMatch(/^FLAKY custom +flip /m);
    expect(stdout).toContain(`flaky: passed 2/4 (fail 2/4); varied: "${check}" failed 2/4`);
    expect(stdout).toMatch(/1 flaky in 4 runs each$/m);
    expect(stdout).toContain("0 passed, 1 failed");
    expect(await readFile(junit, "utf8")).toMatch(/<failure message="flaky: passed 2\/4 \(fail 2\/4\)[^"]*" type="flaky"/);
    expect(await readFile(matrix, "utf8")).toContain("| `flip` | 🎲 2/4 |");
    const page = await readFile(html, "utf8");
    expect(page).toMatch(/<td class="flaky"[^>]*><a href="#d0"[^>]*>FLAKY<\/a><\/td>/);
    expect(page).toContain(`flaky: passed 2/4 (fail 2/4); varied: &quot;${check}&quot; failed 2/4`);
    const summary = await readFile(join(dir, "flip.summary.md"), "utf8");
    expect(summary).toMatch(
      new RegExp(
        `^\\| FLAKY \\| custom \\| \`flip\` \\| \`[^\`]*flip\\.yaml\` \\| \`flaky: passed 2/4 \\(fail 2/4\\); varied: "step 1 \\(runner\\.echo\\) /value/value" failed 2/4\` \\|$`,
        "m",
      ),
    );
  });

  it("a strict baseline entry does not accept the varying outcome; a strict: false entry that quotes its rate does", async () => {
    const strictFile = join(dir, "strict.yaml");
    await writeFile(strictFile, baseline(true, "the port answers flop every other call"));
    const strict = await flipRun("strict", "--repeat", "4", "--jobs", "1", "--baseline", strictFile);
    expect(strict.code, strict.stdout).toBe(1);
    expect(strict.report.results[0].outcome).toBe("flaky");

    const lenientFile = join(dir, "lenient.yaml");
    await writeFile(
      lenientFile,
      baseline(false, "the port answers flop every other call: flaky 2/4 by `conformance run --repeat 4 --filter flip`"),
    );
    turns = await mkdtemp(join(dir, "turns-"));
    const lenient = await flipRun("lenient", "--repeat", "4", "--jobs", "1", "--baseline", lenientFile);
    expect(lenient.code, lenient.stdout).toBe(0);
    expect(lenient.report.results[0]).toMatchObject({
      outcome: "as-expected",
      status: "fail",
      repeat: { runs: 4, passed: 2, flaky: true },
    });
    expect(lenient.stdout).toMatch(/^XFAIL custom +flip /m);
    expect(lenient.stdout).toMatch(/1 flaky \(1 accepted by strict: false entries\) in 4 runs each$/m);
  });

  it("repeats run on lanes, and the results stay in scenario order", async () => {
    const json = join(dir, "lanes.json");
    const { code, stdout } = await runCli(
      ["run", join(dir, "scenarios"), "--runner-cmd", runnerCmd, "--repeat", "5", "--jobs", "3", "--json", json],
      90_000,
      { FAKE_RUNNER_FLIP_DIR: turns },
    );
    expect(code, stdout).toBe(1);
    expect(stdout).toContain("2 scenarios, each 5 times, 3 at a time");
    // No more lanes than runs: one scenario run once gets one lane, whatever --jobs says.
    const one = await runCli(
      ["run", join(dir, "scenarios"), "--runner-cmd", runnerCmd, "--filter", "steady", "--jobs", "3", "--no-baseline"],
      60_000,
      {
        FAKE_RUNNER_FLIP_DIR: turns,
      },
    );
    expect(one.stdout).toMatch(/, 1 scenarios\n/);
    const report = await readReport(json);
    expect(report.results.map((result) => result.scenario)).toEqual(["flip", "steady"]);
    // Five "flip" calls across the lanes' processes take turns 0-4: flip, flop, flip, flop, flip.
    expect(report.results[0].repeat).toMatchObject({ runs: 5, passed: 3, flaky: true });
    expect(report.results[1]).toMatchObject({
      outcome: "as-expected",
      repeat: { runs: 5, passed: 5, statuses: { pass: 5 }, flaky: false },
    });
    expect(report.results[1].repeat?.variedChecks).toBeUndefined();
    expect(stdout.indexOf(" flip ")).toBeLessThan(stdout.indexOf(" steady "));
  });

  it("the in-process reference on a few scenarios, 3 runs each, shows no flaky scenario", async () => {
    const json = join(dir, "reference.json");
    const { code, stdout } = await runCli(
      ["run", "--filter", "core/*", "--filter", "client/baseline/**", "--repeat", "3", "--json", json],
      120_000,
    );
    expect(code, stdout).toBe(0);
    const report = await readReport(json);
    expect(report.results.length).toBeGreaterThan(2);
    for (const result of report.results) expect(result.repeat, result.scenario).toMatchObject({ runs: 3, flaky: false });
    expect(stdout).toMatch(/0 flaky in 3 runs each$/m);
  });

  it("one run (the default, or --repeat 1) writes no repeat at all; a bad count is a usage error", async () => {
    const once = await flipRun("once", "--repeat", "1");
    expect(once.code, once.stdout).toBe(0); // turn 0 answers "flip": one run cannot see the flake
    expect(JSON.stringify(once.report)).not.toContain('"repeat":');
    expect(once.stdout).not.toMatch(/flaky|runs each/);
    const zero = await runCli(["run", "--repeat", "0"]);
    expect(zero.code).toBe(2);
    expect(zero.stderr).toContain("--repeat");
  });
});
