// Steadiness: the whole suite against the reference (in process, and through the ts runner) idle and
// beside six CPU-bound processes in its session (conformance/common/cpu-load.ts), one after the other in each run:
// how much slower it gets under load, and whether every run still ends with nothing unexpected. A
// gate that flakes on a busy CI machine teaches its users to re-run until green; these rows are where
// that is measured, not a timed test. Each sample is a fresh child process (bench/child/run-suite.ts).
import { defaultJobs } from "../../conformance/subjects/pool.ts";
import { runChild } from "../lib/child.ts";
import { pairedRatios, summarize } from "../lib/stats.ts";
import type { Row } from "../lib/table.ts";
import { inProcess, unavailableRows, type BenchContext } from "./context.ts";
import type { SuiteSample } from "./suite.ts";

/** The load the targets are stated for: six busy loops on this project's 2-core machines. */
export const busyLoops = 6;
/** Beside the load, at most this many times the idle wall time (issue 35). */
const slowdownTarget = 1.5;
const childTimeoutMs = 15 * 60_000;
/** --quick (CI: proves the rows run) takes a sparser slice than the suite rows, and the reference in process only. */
const quickSparser = 4;

/** Every n-th scenario: the suite rows' slice, sparser under --quick. */
const sliceOf = (context: BenchContext) => context.options.suiteEvery * (context.options.quick ? quickSparser : 1);

interface SubjectArg {
  name: string;
  arg: Record<string, unknown>;
}

async function sample(context: BenchContext, subject: SubjectArg, loaded: boolean, run: number): Promise<SuiteSample | undefined> {
  const { options, log } = context;
  const label = `${subject.name}, ${loaded ? `beside ${busyLoops} CPU-bound processes` : "idle"}`;
  try {
    // As `npm run conformance` runs: the time scale chosen by auto, as the child starts.
    const arg = {
      ...subject.arg,
      every: sliceOf(context),
      maxScenarioMs: options.suiteMaxScenarioMs,
      jobs: defaultJobs(),
      timeScale: "auto",
    };
    const { result } = await runChild<SuiteSample>("child/run-suite.ts", arg, childTimeoutMs, loaded ? busyLoops : 0);
    log(
      `steadiness ${run + 1}/${options.runs} ${label}: ${(result.wallMs / 1000).toFixed(2)} s at time scale ${result.timeScale ?? 1}, ${result.unexpected.length} unexpected of ${result.scenarios}${result.unexpected.length ? `: ${result.unexpected.join("; ")}` : ""}`,
    );
    return result;
  } catch (error) {
    log(
      `steadiness ${run + 1}/${options.runs} ${label}: FAILED ${(error instanceof Error ? error.message : String(error)).split("\n")[0]}`,
    );
    return undefined;
  }
}

function subjectsToMeasure(context: BenchContext): { subjects: SubjectArg[]; rows: Row[] } {
  const subjects: SubjectArg[] = [{ name: inProcess, arg: { subject: "reference" } }];
  const rows: Row[] = [];
  const ts = context.options.quick ? undefined : context.runners.find((runner) => runner.name === "ts");
  if (ts?.available) subjects.push({ name: "ts", arg: { subject: "runner", spec: ts.spec, baseline: ts.baseline } });
  else if (ts) rows.push(...unavailableRows("steadiness", [{ figure: "suite wall time beside load / idle", unit: "x" }], ts));
  return { subjects, rows };
}

export async function measureSteadiness(context: BenchContext): Promise<Row[]> {
  const { options } = context;
  const { subjects, rows } = subjectsToMeasure(context);
  const every = sliceOf(context);
  const slice = every > 1 ? ` (every ${every}th scenario)` : "";
  for (const subject of subjects) {
    const idle: (SuiteSample | undefined)[] = [];
    const loaded: (SuiteSample | undefined)[] = [];
    for (let run = 0; run < options.runs; run++) {
      idle.push(await sample(context, subject, false, run));
      loaded.push(await sample(context, subject, true, run));
    }
    const walls = (samples: (SuiteSample | undefined)[]) => samples.map((one) => one?.wallMs ?? Number.NaN);
    // A run passed when its sample exists and nothing in it was unexpected (a failure, an error, a stale entry).
    const passed = loaded.map((one) => (one && !one.unexpected.length ? 1 : 0));
    const unexpected = [...new Set(loaded.flatMap((one) => one?.unexpected ?? []))];
    rows.push(
      {
        group: "steadiness",
        figure: `suite wall time beside ${busyLoops} CPU-bound processes / idle${slice}`,
        subject: subject.name,
        unit: "x",
        summary: summarize(pairedRatios(walls(loaded), walls(idle))),
        target: slice ? undefined : { stat: "median", op: "<=", value: slowdownTarget },
        note: `idle and loaded one after the other in each of ${options.runs} runs, --jobs ${defaultJobs()}`,
      },
      {
        group: "steadiness",
        figure: `suite runs with nothing unexpected beside ${busyLoops} CPU-bound processes (1 = passed)${slice}`,
        subject: subject.name,
        unit: "run",
        summary: summarize(passed),
        target: { stat: "min", op: ">=", value: 1 },
        note: `${passed.filter(Boolean).length} of ${passed.length} runs passed${unexpected.length ? `; unexpected: ${unexpected.slice(0, 5).join(", ")}` : ""}`,
      },
    );
  }
  return rows;
}
