// A run: open each chosen subject, run the scenarios against it, print as results arrive, and build
// the report (`run`, `history` and the tests call it; the CLI only parses and prints). A subject that
// cannot start is reported as unavailable with its reason.
import { OrderedLog } from "../common/ordered-log.ts";
import type { Report, Result } from "../schema/report.types.ts";
import type { ExpandedScenario } from "../scenario/expand.ts";
import { runSuite, type RunTimeScale } from "./suite.ts";
import { orphanedEntries, orphanProblems } from "../report/baseline.ts";
import { formatResult } from "../report/console.ts";
import { reportSubject } from "../report/json-report.ts";
import { describeOrigin } from "../report/origin.ts";
import { stampSuite } from "../report/suite-stamp.ts";
import { durationWeight, loadDurationTable, type DurationTable } from "../report/durations.ts";
import { waitWeight } from "../engine/schedule.ts";
import type { FixtureKind } from "../scenario/fixture.ts";
import { closeLanes } from "../subjects/pool.ts";
import { openSubjects, type OpenedSubject, type SubjectChoice } from "./subjects.ts";
import { describeTimeScale } from "../report/time-scale.ts";

export type { SubjectChoice };

/** What one subject's turn adds to the run: its report entry, its results, and why it fails the run. */
interface SubjectTurn {
  subject: Report["subjects"][number];
  results: Result[];
  problems: string[];
  /** Unavailable, and picked by `all` (not named): only --require makes that a problem. */
  unavailableUnrequested?: string;
}

async function runTurn(
  opened: OpenedSubject,
  scenarios: ExpandedScenario[],
  options: RunOptions,
  durations: DurationTable,
  log: (line: string) => void,
): Promise<SubjectTurn> {
  if (!opened.subject) {
    log(`UNAVAILABLE ${opened.info.name}: ${opened.unavailableReason}`);
    const subject = reportSubject(opened.info, opened.unavailableReason);
    // Named on the command line: its unavailability is a problem already, --require or not.
    return opened.explicitlyRequested
      ? { subject, results: [], problems: [`${opened.info.name} is unavailable: ${opened.unavailableReason}`] }
      : { subject, results: [], problems: [], unavailableUnrequested: opened.info.name };
  }
  const { info } = opened.subject;
  const repeat = options.repeat ?? 1;
  const lanes = opened.lanes.length > 1 ? `, ${opened.lanes.length} at a time` : "";
  const times = repeat > 1 ? `, each ${repeat} times` : "";
  log(
    `== ${info.name}: ${info.package} ${info.version} (${info.language}; ${describeOrigin(info.build)}), ${scenarios.length} scenarios${times}${lanes}`,
  );
  const subject = reportSubject(info);
  let results: Result[];
  try {
    results = await runSuite(scenarios, opened.lanes, {
      fixtureKinds: options.fixtureKinds,
      timeScale: options.timeScale,
      baseline: opened.baseline,
      repeat,
      weight: durationWeight(durations, info.name, waitWeight),
      onResult: (result) => log(formatResult(result)),
    });
  } finally {
    await closeLanes(opened.lanes);
  }
  const problems: string[] = [];
  const orphans = options.suiteIds ? orphanedEntries(opened.baseline, options.suiteIds).map((entry) => entry.scenario) : [];
  if (orphans.length) {
    subject.orphanedEntries = orphans;
    if (!options.sharded) problems.push(...orphanProblems(info.name, orphans));
    else for (const problem of orphanProblems(info.name, orphans)) log(`note: ${problem} (merging the shards fails on it)`);
  }
  return { subject, results, problems };
}

export interface RunOptions {
  /** The suite's fixture kinds (SuiteDefinition.fixtureKinds). */
  fixtureKinds: ReadonlyMap<string, FixtureKind>;
  /** The suite's measured durations (report/durations.ts), so lanes start the longest scenarios first. */
  durationsFile: string;
  /**
   * Every scenario id of the suite, given when the run's selection (before any shard) is the whole
   * suite, so a baseline entry naming none of them is found. A shard records it in its report subject
   * and leaves the verdict to merge, where the shards meet (one message, not one per shard).
   */
  suiteIds?: Set<string>;
  sharded?: boolean;
  required?: string[];
  repeat?: number;
  /** Subjects whose scenarios run at the same time (`run --subjects-at-once`); default 1, one after another. */
  subjectsAtOnce?: number;
  /** The shard this run is (`run --shard`), recorded in the report. */
  shard?: Shard;
  /** A time scale other than 1 and the suite's time keys; absent: the files' own times. */
  timeScale?: RunTimeScale;
}

export type Shard = NonNullable<Report["shard"]>;

/** The report of a shard with nothing to run: no subject, no result. */
export function emptyShardReport(shard: Shard): Report {
  const now = new Date().toISOString();
  return { version: 1, startedAt: now, finishedAt: now, subjects: [], results: [], shard };
}

export async function runAgainstSubjects(
  scenarios: ExpandedScenario[],
  choice: SubjectChoice,
  options: RunOptions,
): Promise<{ report: Report; problems: string[] }> {
  const startedAt = new Date().toISOString();
  const repeat = options.repeat ?? 1;
  // One run at the files' own times keeps the report exactly as it was before --repeat and --time-scale existed.
  const report: Report = {
    version: 1,
    startedAt,
    finishedAt: startedAt,
    ...(repeat > 1 ? { repeat } : {}),
    ...(options.timeScale ? { timeScale: options.timeScale.chosen } : {}),
    subjects: [],
    results: [],
  };
  if (options.timeScale) console.log(describeTimeScale(options.timeScale.chosen));
  const durations = await loadDurationTable(options.durationsFile);
  // Subjects side by side print, and are reported, in their order all the same: a report does not
  // depend on how many ran at once, only the time does.
  const output = new OrderedLog(console.log);
  // No more lanes than scenario runs (run and history alike): a lane with nothing to run costs a runner
  // process for nothing.
  const jobs = Math.min(choice.jobs ?? 1, Math.max(1, scenarios.length * repeat));
  const opening = openSubjects({ ...choice, jobs }, (index) => (line) => output.line(index, line));
  const turns: SubjectTurn[] = [];
  let taken = 0;
  let broken = false;
  const slot = async () => {
    while (!broken) {
      const next = await opening.next();
      if (next.done) return;
      const index = taken++;
      try {
        turns[index] = await runTurn(next.value, scenarios, options, durations, (line) => output.line(index, line));
      } catch (error) {
        broken = true; // no slot takes another subject
        throw error;
      } finally {
        output.finish(index);
      }
    }
  };
  const slots = await Promise.allSettled(Array.from({ length: Math.max(1, options.subjectsAtOnce ?? 1) }, slot));
  const failed = slots.find((outcome) => outcome.status === "rejected");
  if (failed) {
    await opening.return(undefined); // closes what was started for subjects no slot took
    throw failed.reason;
  }
  for (const turn of turns) {
    report.subjects.push(turn.subject);
    report.results.push(...turn.results);
  }
  const problems = turns.flatMap((turn) => turn.problems);
  const unavailableUnrequested = new Set(turns.flatMap((turn) => turn.unavailableUnrequested ?? []));
  for (const name of options.required ?? []) {
    const subject = report.subjects.find((candidate) => candidate.name === name);
    if (!subject)
      problems.push(
        `${name} was required (--require) but is not one of this run's subjects: ${report.subjects.map((candidate) => candidate.name).join(", ")}`,
      );
    else if (unavailableUnrequested.has(name))
      problems.push(`${name} was required (--require) but is unavailable: ${subject.unavailableReason}`);
  }
  report.finishedAt = new Date().toISOString();
  if (options.shard) report.shard = options.shard;
  stampSuite(report, scenarios);
  return { report, problems };
}
