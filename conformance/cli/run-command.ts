// `run`: open each chosen subject, run the scenarios against it, print as results arrive, and build
// the report. A subject that cannot start is reported as unavailable with its reason.
import type { Report } from "../schema/report.types.ts";
import type { ExpandedScenario } from "../scenario/expand.ts";
import { runSuite } from "../report/run-suite.ts";
import { orphanedEntries } from "../report/baseline.ts";
import { formatResult } from "../report/console.ts";
import { reportSubject } from "../report/json-report.ts";
import { describeOrigin } from "../report/origin.ts";
import { toolnexusSuite } from "../suite/toolnexus.ts";
import { openSubjects, type SubjectChoice } from "./select-subjects.ts";

export type { SubjectChoice };

export async function runAgainstSubjects(
  scenarios: ExpandedScenario[],
  choice: SubjectChoice,
  options: { fullSuite: boolean; required?: string[] },
): Promise<{ report: Report; problems: string[] }> {
  const startedAt = new Date().toISOString();
  const report: Report = { version: 1, startedAt, finishedAt: startedAt, subjects: [], results: [] };
  const problems: string[] = [];
  const unavailableUnrequested = new Set<string>();
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
    console.log(`== ${info.name}: ${info.package} ${info.version} (${info.language}; ${describeOrigin(info.build)}), ${scenarios.length} scenarios`);
    report.subjects.push(reportSubject(info));
    try {
      report.results.push(...(await runSuite(scenarios, opened.subject, { fixtureKinds: toolnexusSuite.fixtureKinds, baseline: opened.baseline, onResult: (result) => console.log(formatResult(result)) })));
    } finally {
      await opened.subject.close();
    }
    if (options.fullSuite) {
      for (const entry of orphanedEntries(opened.baseline, new Set(scenarios.map((scenario) => scenario.id)))) {
        problems.push(`${info.name} baseline lists "${entry.scenario}", which is not a scenario (renamed or removed?): update the baseline`);
      }
    }
  }
  for (const name of options.required ?? []) {
    const subject = report.subjects.find((candidate) => candidate.name === name);
    if (!subject) problems.push(`${name} was required (--require) but is not one of this run's subjects: ${report.subjects.map((candidate) => candidate.name).join(", ")}`);
    else if (unavailableUnrequested.has(name)) problems.push(`${name} was required (--require) but is unavailable: ${subject.unavailableReason}`);
  }
  report.finishedAt = new Date().toISOString();
  return { report, problems };
}
