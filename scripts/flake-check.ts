// Does --jobs change outcomes? Runs the suite with `run --repeat N` at each --jobs setting (a flake rate
// is run --repeat's job: it runs each scenario N times and reports how many runs passed), then lists
// every scenario that was flaky at some setting or whose runs ended differently at two settings, with
// each setting's rate. Exit 1 when one did, 2 on bad input.
//
//   npx tsx scripts/flake-check.ts                          # the reference, --repeat 5 at --jobs 1 and at the default
//   npx tsx scripts/flake-check.ts --runner python --runs 3 # a runner (its own baseline judges each run)
//   npx tsx scripts/flake-check.ts --jobs 1,8 --filter 'mcp/**'
//   npx tsx scripts/flake-check.ts --from-reports out/flake/*.json   # compare reports already written
//   npx tsx scripts/flake-check.ts --jobs 8 --load 6        # beside six CPU-bound processes: steadiness
//
// Each setting writes out/flake/SUBJECT-jobsJ.json (and .log), with the load average at its start, since
// a status that flips only while the machine is loaded is a different finding. --load N makes that load
// on purpose: N CPU-bound processes run beside every setting, in its session (conformance/common/cpu-load.ts),
// and end with it.
import { mkdir, writeFile } from "node:fs/promises";
import { loadavg } from "node:os";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { repoRoot } from "../conformance/common/paths.ts";
import { readJsonReport } from "../conformance/report/json-report.ts";
import { describeRepeat } from "../conformance/report/repeat.ts";
import type { Result } from "../conformance/schema/report.types.ts";
import { defaultJobs } from "../conformance/subjects/pool.ts";
import { runBounded } from "../conformance/common/run-bounded.ts";
import { besideCpuLoad } from "../conformance/common/cpu-load.ts";
import { cleanUpOnInterrupt } from "../conformance/common/interrupt.ts";
import { killLiveProcessGroups } from "../conformance/common/process-group.ts";

/** One setting's runs: java's whole suite is about 4 minutes at --jobs 1, per repetition. */
const runTimeoutMs = 90 * 60_000;

const { values, positionals } = parseArgs({
  options: {
    runner: { type: "string" },
    runs: { type: "string", default: "5" },
    jobs: { type: "string", default: `1,${defaultJobs()}` },
    filter: { type: "string", multiple: true, default: [] },
    out: { type: "string", default: "out/flake" },
    load: { type: "string", default: "0" },
    "from-reports": { type: "string", multiple: true },
  },
  allowPositionals: true,
});

function fail(message: string): never {
  console.error(`flake-check: ${message}`);
  process.exit(2);
}

async function runAll(): Promise<{ label: string; file: string }[]> {
  const load = Number(values.load);
  if (!Number.isInteger(load) || load < 0) fail(`--load ${values.load}: expected a whole number of CPU-bound processes >= 0`);
  // Interrupted: each setting's run dies with its process group, and its busy loops follow their shell.
  cleanUpOnInterrupt(killLiveProcessGroups);
  return runSettings(load);
}

async function runSettings(hogs: number): Promise<{ label: string; file: string }[]> {
  const runs = Number(values.runs);
  if (!Number.isInteger(runs) || runs < 2) fail(`--runs ${values.runs}: expected a whole number >= 2 (run --repeat's N)`);
  const jobsList = values.jobs!.split(",").map((text) => Number(text.trim()));
  if (jobsList.some((jobs) => !Number.isInteger(jobs) || jobs < 1))
    fail(`--jobs ${values.jobs}: expected a comma list of whole numbers >= 1, e.g. 1,4`);
  const subject = values.runner ?? "reference";
  await mkdir(values.out!, { recursive: true });
  const written: { label: string; file: string }[] = [];
  for (const jobs of jobsList) {
    const label = `${subject}-jobs${jobs}${hogs ? `-load${hogs}` : ""}`;
    const file = join(values.out!, `${label}.json`);
    const args = [
      "tsx",
      "conformance/cli/main.ts",
      "run",
      ...(values.runner ? ["--runner", values.runner] : []),
      ...values.filter!.flatMap((glob) => ["--filter", glob]),
      "--repeat",
      String(runs),
      "--jobs",
      String(jobs),
      "--json",
      file,
    ];
    const load = loadavg()[0].toFixed(1);
    const started = performance.now();
    const finished = await runBounded(besideCpuLoad(hogs, ["npx", ...args]), { cwd: repoRoot, timeoutMs: runTimeoutMs });
    const outcome = { ...finished, output: finished.startError?.message ?? finished.output };
    const seconds = ((performance.now() - started) / 1000).toFixed(1);
    await writeFile(join(values.out!, `${label}.log`), outcome.output);
    if (outcome.timedOut || outcome.code === null || outcome.code > 1)
      fail(
        `${label}: the run broke (${outcome.timedOut ? `over ${runTimeoutMs} ms` : `exit ${outcome.code}`}); see ${join(values.out!, `${label}.log`)}`,
      );
    console.log(
      `${label}: ${seconds} s for ${runs} runs each (load average ${load} at the start${hogs ? `, ${hogs} CPU-bound processes beside it` : ""}): ${outcome.output.trimEnd().split("\n").at(-1)}`,
    );
    written.push({ label, file });
  }
  return written;
}

// --from-reports a.json b.json: a shell glob gives the files after the first as positionals.
const fromReports = values["from-reports"] ? [...values["from-reports"], ...positionals] : undefined;
const settings = fromReports ? fromReports.map((file) => ({ label: file, file })) : await runAll();
const reports = await Promise.all(settings.map(async ({ file }) => (await readJsonReport(file)).results));
/** How one setting's runs of a scenario ended, comparable across settings. */
const ending = (result: Result | undefined) => (!result ? "(absent)" : result.repeat ? describeRepeat(result.repeat) : result.status);
const keys = [...new Set(reports.flat().map((result) => `${result.subject}\u0000${result.scenario}`))];
let differing = 0;
for (const key of keys) {
  const results = reports.map((results) => results.find((result) => `${result.subject}\u0000${result.scenario}` === key));
  const endings = results.map(ending);
  if (!results.some((result) => result?.repeat?.flaky) && new Set(endings).size === 1) continue;
  differing++;
  const [subject, scenario] = key.split("\u0000");
  console.log(`DIFFERS ${subject} ${scenario}: ${endings.map((text, index) => `${settings[index].label}=${text}`).join("; ")}`);
}
console.log(
  `flake-check: ${settings.length} settings, ${keys.length} scenarios, ${differing} flaky or ending differently between settings`,
);
process.exitCode = differing ? 1 : 0;
