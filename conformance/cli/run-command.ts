// `run`: open each chosen subject, run the scenarios against it, print as results arrive, and build
// the report. A subject that cannot start is reported as unavailable with its reason.
import type { Report } from "../schema/report.types.ts";
import type { ExpandedScenario } from "../scenario/expand.ts";
import { runSuite } from "../report/run-suite.ts";
import { orphanedEntries, orphanProblems } from "../report/baseline.ts";
import { formatResult } from "../report/console.ts";
import { reportSubject } from "../report/json-report.ts";
import { describeOrigin } from "../report/origin.ts";
import { durationWeight, loadDurationTable } from "../report/durations.ts";
import { waitWeight } from "../engine/schedule.ts";
import { toolnexusDurationsFile, toolnexusSuite } from "../suite/toolnexus.ts";
import { closeLanes } from "../subjects/pool.ts";
import { openSubjects, type SubjectChoice } from "./select-subjects.ts";

export type { SubjectChoice };

export async function runAgainstSubjects(
  scenarios: ExpandedScenario[],
  choice: SubjectChoice,
  // suiteIds: every scenario id of the suite, given when the run's selection (before any shard) is the
  // whole suite, so a baseline entry naming none of them is found. A shard records it in its report
  // subject and leaves the verdict to merge, where the shards meet (one message, not one per shard).
  options: { suiteIds?: Set<string>; sharded?: boolean; required?: string[]; repeat?: number },
): Promise<{ report: Report; problems: string[] }> {
  const startedAt = new Date().toISOString();
  const repeat = options.repeat ?? 1;
  // One run keeps the report exactly as it was before --repeat existed.
  const report: Report = { version: 1, startedAt, finishedAt: startedAt, ...(repeat > 1 ? { repeat } : {}), subjects: [], results: [] };
  const problems: string[] = [];
  const unavailableUnrequested = new Set<string>();
  const durations = await loadDurationTable(toolnexusDurationsFile);
  for await (const opened of openSubjects(choice)) {
    if (!opened.subject) {
      console.log(`UNAVAILABLE ${opened.info.name}: ${opened.unavailableReason}`);
      report.subjects.push(reportSubject(opened.info, opened.unavailableReason));
      // Named on the command line: its unavailability is a problem already, --require or not.
      if (opened.explicitlyRequested) problems.push(`${opened.info.name} is unavailable: ${opened.unavailableReason}`);
      else unavailableUnrequested.add(opened.info.name);
      continue;
    }
    const { info } = opened.subject;
    const lanes = opened.lanes.length > 1 ? `, ${opened.lanes.length} at a time` : "";
    const times = repeat > 1 ? `, each ${repeat} times` : "";
    console.log(
      `== ${info.name}: ${info.package} ${info.version} (${info.language}; ${describeOrigin(info.build)}), ${scenarios.length} scenarios${times}${lanes}`,
    );
    const subject = reportSubject(info);
    report.subjects.push(subject);
    try {
      report.results.push(
        ...(await runSuite(scenarios, opened.lanes, {
          fixtureKinds: toolnexusSuite.fixtureKinds,
          baseline: opened.baseline,
          repeat,
          weight: durationWeight(durations, info.name, waitWeight),
          onResult: (result) => console.log(formatResult(result)),
        })),
      );
    } finally {
      await closeLanes(opened.lanes);
    }
    const orphans = options.suiteIds ? orphanedEntries(opened.baseline, options.suiteIds).map((entry) => entry.scenario) : [];
    if (orphans.length) {
      subject.orphanedEntries = orphans;
      if (!options.sharded) problems.push(...orphanProblems(info.name, orphans));
      else for (const problem of orphanProblems(info.name, orphans)) console.log(`note: ${problem} (merging the shards fails on it)`);
    }
  }
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
  return { report, problems };
}
