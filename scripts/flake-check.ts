// Finds scenarios whose status depends on the run, not the subject: runs the suite several times with
// each --jobs setting (the settings take turns, so both see the machine's load of the moment), then
// lists every scenario whose status differed between any two runs. Exit 1 when one did, 2 on bad input.
//
//   npx tsx scripts/flake-check.ts                          # the reference, 5 runs at --jobs 1 and 5 at the default
//   npx tsx scripts/flake-check.ts --runner python --runs 3 # a runner (its own baseline judges each run)
//   npx tsx scripts/flake-check.ts --jobs 1,8 --filter 'mcp/**'
//   npx tsx scripts/flake-check.ts --from-reports out/flake/*.json   # compare reports already written
//
// Each run writes out/flake/SUBJECT-jobsJ-runK.json (and .log); the load average is printed with each
// run, since a status that flips only while the machine is loaded is a different finding.
import { mkdir, writeFile } from "node:fs/promises";
import { loadavg } from "node:os";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { repoRoot } from "../conformance/common/paths.ts";
import { statusesThatDiffer } from "../conformance/report/comparable.ts";
import { readJsonReport } from "../conformance/report/json-report.ts";
import { defaultJobs } from "../conformance/subjects/pool.ts";
import { runBounded } from "../conformance/common/run-bounded.ts";

/** One whole-suite run: java's is the longest, about 4 minutes at --jobs 1. */
const runTimeoutMs = 20 * 60_000;

const { values } = parseArgs({
  options: {
    runner: { type: "string" },
    runs: { type: "string", default: "5" },
    jobs: { type: "string", default: `1,${defaultJobs()}` },
    filter: { type: "string", multiple: true, default: [] },
    out: { type: "string", default: "out/flake" },
    "from-reports": { type: "string", multiple: true },
  },
  allowPositionals: true,
});

function fail(message: string): never {
  console.error(`flake-check: ${message}`);
  process.exit(2);
}

async function runAll(): Promise<{ label: string; file: string }[]> {
  const runs = Number(values.runs);
  if (!Number.isInteger(runs) || runs < 1) fail(`--runs ${values.runs}: expected a whole number >= 1`);
  const jobsList = values.jobs!.split(",").map((text) => Number(text.trim()));
  if (jobsList.some((jobs) => !Number.isInteger(jobs) || jobs < 1)) fail(`--jobs ${values.jobs}: expected a comma list of whole numbers >= 1, e.g. 1,4`);
  const subject = values.runner ?? "reference";
  await mkdir(values.out!, { recursive: true });
  const written: { label: string; file: string }[] = [];
  for (let run = 1; run <= runs; run++) {
    // Rotating order: no setting always runs right after the other.
    const order = jobsList.map((_, index) => jobsList[(index + run - 1) % jobsList.length]);
    for (const jobs of order) {
      const label = `${subject}-jobs${jobs}-run${run}`;
      const file = join(values.out!, `${label}.json`);
      const args = ["tsx", "conformance/cli/main.ts", "run", ...(values.runner ? ["--runner", values.runner] : []), ...values.filter!.flatMap((glob) => ["--filter", glob]), "--jobs", String(jobs), "--json", file];
      const load = loadavg()[0].toFixed(1);
      const started = performance.now();
      const finished = await runBounded(["npx", ...args], { cwd: repoRoot, timeoutMs: runTimeoutMs });
      const outcome = { ...finished, output: finished.startError?.message ?? finished.output };
      const seconds = ((performance.now() - started) / 1000).toFixed(1);
      await writeFile(join(values.out!, `${label}.log`), outcome.output);
      if (outcome.timedOut || outcome.code === null || outcome.code > 1) fail(`${label}: the run broke (${outcome.timedOut ? `over ${runTimeoutMs} ms` : `exit ${outcome.code}`}); see ${join(values.out!, `${label}.log`)}`);
      const summary = outcome.output.trimEnd().split("\n").at(-1);
      console.log(`${label}: ${seconds} s (load average ${load} at the start): ${summary}`);
      written.push({ label, file });
    }
  }
  return written;
}

const runs = values["from-reports"] ? values["from-reports"].map((file) => ({ label: file, file })) : await runAll();
const reports = await Promise.all(runs.map(async ({ file }) => (await readJsonReport(file)).results));
const differing = statusesThatDiffer(reports);
for (const { subject, scenario, statuses } of differing) {
  console.log(`DIFFERS ${subject} ${scenario}: ${statuses.map((status, index) => `${runs[index].label}=${status}`).join(" ")}`);
}
console.log(`flake-check: ${runs.length} runs, ${new Set(reports.flat().map((result) => `${result.subject} ${result.scenario}`)).size} scenarios, ${differing.length} with a status that differed between runs`);
process.exitCode = differing.length ? 1 : 0;
