// `run --repeat N`: a scenario's N judged runs against one subject folded into one result, so reports,
// matrices and diffs keep one row per scenario and subject. The runs agree when each ended with the same
// status and failed the same checks; when they do not, the scenario is flaky: its result says how many
// runs passed and which checks failed in some runs only, and its outcome is "flaky" (the gate fails on
// it) unless its baseline entry is `strict: false`, the entry that says the port's timing decides.
import type { Result } from "../schema/report.types.ts";
import { failedChecks } from "./baseline.ts";

type Outcome = NonNullable<Result["outcome"]>;
export type RepeatSummary = NonNullable<Result["repeat"]>;

/** What must be equal in every run for them to agree: the status and the set of checks failed. */
const signature = (result: Result) => JSON.stringify([result.status, [...failedChecks(result)].sort()]);

const severity: Record<Outcome, number> = { "as-expected": 0, "unexpected-pass": 1, "unexpected-failure": 2, flaky: 3 };
const failing = (result: Result) => result.status === "fail" || result.status === "error";

/** The runs of one scenario on one subject, in run order, as one result. One run is returned as it is. */
export function foldRuns(runs: readonly Result[]): Result {
  if (!runs.length) throw new Error("foldRuns needs at least one run");
  if (runs.length === 1) return runs[0];
  // The run shown in full: the first of the worst outcome, else the first that failed (its details are
  // what a reader needs), else the first.
  const worst = Math.max(...runs.map((run) => severity[run.outcome ?? "as-expected"]));
  const shown =
    runs.find((run) => severity[run.outcome ?? "as-expected"] === worst && (worst > 0 || failing(run))) ?? runs.find(failing) ?? runs[0];
  const flaky = new Set(runs.map(signature)).size > 1;
  const statuses: RepeatSummary["statuses"] = {};
  for (const run of runs) statuses[run.status] = (statuses[run.status] ?? 0) + 1;
  const failedIn = new Map<string, number>();
  for (const run of runs) for (const check of failedChecks(run)) failedIn.set(check, (failedIn.get(check) ?? 0) + 1);
  const variedChecks = [...failedIn].filter(([, count]) => count < runs.length).map(([check, failed]) => ({ check, failed }));
  const repeat: RepeatSummary = {
    runs: runs.length,
    passed: statuses.pass ?? 0,
    statuses,
    flaky,
    ...(variedChecks.length ? { variedChecks } : {}),
  };
  // A strict:false entry accepts a varying outcome (each run is still judged on its own); any other does not.
  const tolerated = shown.expected?.strict === false;
  return { ...shown, ...(flaky && !tolerated ? { outcome: "flaky" as const } : {}), repeat };
}

/** "passed 4/5; varied: CHECK failed 1/5": a flaky result's rate, as the console and the reports say it. */
export function describeRepeat(repeat: RepeatSummary): string {
  const others = Object.entries(repeat.statuses)
    .filter(([status]) => status !== "pass")
    .map(([status, count]) => `${status} ${count}/${repeat.runs}`);
  const head = `passed ${repeat.passed}/${repeat.runs}${others.length ? ` (${others.join(", ")})` : ""}`;
  const varied = (repeat.variedChecks ?? []).map((entry) => `${JSON.stringify(entry.check)} failed ${entry.failed}/${repeat.runs}`);
  return varied.length ? `${head}; varied: ${varied.join(", ")}` : head;
}
