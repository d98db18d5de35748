// vitest's time, per file group (the folder under test/ a test file sits in): where the test run's
// minutes go. `--vitest-report FILE` reads a run already made (`npm test` writes out/vitest-report.json,
// so CI's quick bench does not run the tests a second time); otherwise each run of the bench runs
// `npx vitest run` once. `--vitest-before REF` runs the tests of that commit too, in a git worktree
// beside this checkout, in turn with this checkout's in each run: the after / before ratio, measured in
// one sitting on one machine (issue 35's target: at most half).
import { mkdtemp, readFile, rm, symlink } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join, relative, sep } from "node:path";
import { repoRoot } from "../../conformance/common/paths.ts";
import { runBounded } from "../../conformance/common/run-bounded.ts";
import { pairedRatios, summarize } from "../lib/stats.ts";
import type { Row } from "../lib/table.ts";
import type { BenchContext } from "./context.ts";

const vitestTimeoutMs = 30 * 60_000;
/** Issue 35: the tests at most half the time of the commit before its work, measured side by side. */
const ratioTarget = 0.5;

/** One vitest run: its wall time and each file group's summed file time (files run two at a time, so groups add up past the wall). */
interface VitestTimes {
  wallMs: number;
  groups: Map<string, number>;
  tests: number;
  /** Tests that failed: the run's time still counts (vitest does not stop at a failure), and the rows say it. */
  failed: number;
}

interface JsonReport {
  startTime: number;
  numTotalTests: number;
  numFailedTests: number;
  testResults: { name: string; startTime: number; endTime: number }[];
}

/** The folder under test/ a file sits in: `test/conformance/report/x.test.ts` -> `conformance/report`. */
function groupOf(dir: string, file: string): string {
  const parts = relative(join(dir, "test"), file).split(sep).slice(0, -1);
  return parts.join("/") || ".";
}

function timesOf(dir: string, report: JsonReport, wallMs?: number): VitestTimes {
  const groups = new Map<string, number>();
  for (const file of report.testResults) {
    const group = groupOf(dir, file.name);
    groups.set(group, (groups.get(group) ?? 0) + (file.endTime - file.startTime));
  }
  const lastEnd = Math.max(...report.testResults.map((file) => file.endTime));
  return { wallMs: wallMs ?? lastEnd - report.startTime, groups, tests: report.numTotalTests, failed: report.numFailedTests };
}

async function runVitest(dir: string, log: (line: string) => void, label: string): Promise<VitestTimes> {
  const reportFile = join(await mkdtemp(join(tmpdir(), "tnc-bench-vitest-")), "report.json");
  const started = performance.now();
  const run = await runBounded(["npx", "vitest", "run", "--reporter=dot", "--reporter=json", `--outputFile.json=${reportFile}`], {
    cwd: dir,
    timeoutMs: vitestTimeoutMs,
    tails: { output: 4_000 },
    killGroupAfterExit: true,
  });
  const wallMs = performance.now() - started;
  try {
    if (run.startError) throw run.startError;
    if (run.timedOut) throw new Error(`vitest in ${dir} did not finish within ${vitestTimeoutMs / 60_000} minutes: killed`);
    // No report at all is a run that broke, not a time.
    const report = JSON.parse(
      await readFile(reportFile, "utf8").catch(() => {
        throw new Error(`vitest in ${dir} wrote no report (exit ${run.code}):\n${run.output.trim()}`);
      }),
    ) as JsonReport;
    const failures = report.numFailedTests ? `, ${report.numFailedTests} FAILED (exit ${run.code}):\n${run.output.trim()}` : "";
    log(`vitest ${label}: ${(wallMs / 1000).toFixed(0)} s, ${report.numTotalTests} tests${failures}`);
    return timesOf(dir, report, wallMs);
  } finally {
    await rm(join(reportFile, ".."), { recursive: true, force: true });
  }
}

/** A worktree of `ref` beside this checkout, sharing its node_modules; removed by the returned function. */
async function worktreeOf(ref: string): Promise<{ dir: string; remove: () => Promise<void> }> {
  const dir = join(await mkdtemp(join(tmpdir(), "tnc-bench-before-")), "tree");
  const git = (...args: string[]) => runBounded(["git", ...args], { cwd: repoRoot, timeoutMs: 120_000 });
  const added = await git("worktree", "add", "--detach", dir, ref);
  if (added.code !== 0) throw new Error(`git worktree add ${ref}: ${added.output.trim()}`);
  await symlink(join(repoRoot, "node_modules"), join(dir, "node_modules"));
  return {
    dir,
    remove: async () => {
      await git("worktree", "remove", "--force", dir);
      await rm(join(dir, ".."), { recursive: true, force: true });
    },
  };
}

/** The tests a row's runs had, and how many of them failed where any did. */
function testsOf(samples: VitestTimes[]): string {
  const failed = samples.reduce((sum, sample) => sum + sample.failed, 0);
  return `${samples[0]?.tests} tests${failed ? `; ${failed} failed over the ${samples.length} run(s): see the log` : ""}`;
}

function groupRows(samples: VitestTimes[], subject: string, note: string): Row[] {
  const names = [...new Set(samples.flatMap((sample) => [...sample.groups.keys()]))].sort();
  const seconds = (values: number[]) => summarize(values.map((ms) => ms / 1000));
  return [
    { group: "vitest", figure: "vitest wall time", subject, unit: "s", summary: seconds(samples.map((sample) => sample.wallMs)), note },
    ...names.map((name): Row => ({
      group: "vitest",
      figure: `vitest file time, test/${name === "." ? "" : `${name}/`}`,
      subject,
      unit: "s",
      summary: seconds(samples.map((sample) => sample.groups.get(name) ?? 0)),
    })),
  ];
}

export async function measureVitest(context: BenchContext): Promise<Row[]> {
  const { options, log } = context;
  if (!options.vitestReport && options.quick)
    return [
      {
        group: "vitest",
        figure: "vitest wall time",
        subject: "this checkout",
        unit: "s",
        unavailable: "--quick runs no tests of its own: give it the report of the run just made (--vitest-report FILE; npm test does)",
      },
    ];
  if (options.vitestReport) {
    const report = JSON.parse(await readFile(options.vitestReport, "utf8")) as JsonReport;
    return groupRows(
      [timesOf(repoRoot, report)],
      "this checkout",
      `read from ${relative(repoRoot, options.vitestReport)}, ${report.numTotalTests} tests`,
    );
  }
  const before = options.vitestBefore ? await worktreeOf(options.vitestBefore) : undefined;
  const after: VitestTimes[] = [];
  const earlier: VitestTimes[] = [];
  try {
    for (let run = 0; run < options.runs; run++) {
      if (before) earlier.push(await runVitest(before.dir, log, `${options.vitestBefore} (${run + 1}/${options.runs})`));
      after.push(await runVitest(repoRoot, log, `this checkout (${run + 1}/${options.runs})`));
    }
  } finally {
    await before?.remove();
  }
  const rows = groupRows(after, "this checkout", `${options.runs} run(s) of npx vitest run, ${testsOf(after)}`);
  if (!before) return rows;
  rows.push(...groupRows(earlier, options.vitestBefore!, testsOf(earlier)), {
    group: "vitest",
    figure: `vitest wall time, this checkout / ${options.vitestBefore}`,
    subject: "this checkout",
    unit: "x",
    summary: summarize(
      pairedRatios(
        after.map((one) => one.wallMs),
        earlier.map((one) => one.wallMs),
      ),
    ),
    target: { stat: "median", op: "<=", value: ratioTarget },
    note: `each run: ${options.vitestBefore}'s tests, then this checkout's, on one machine`,
  });
  return rows;
}
