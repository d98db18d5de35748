// `run`: open each chosen subject, run the scenarios against it, print as results arrive, and build
// the report. A subject that cannot start is reported as unavailable with its reason.
import type { Report } from "../schema/report.types.ts";
import type { ExpandedScenario } from "../scenario/expand.ts";
import { runSuite } from "../engine/suite.ts";
import { orphanedEntries } from "../report/baseline.ts";
import { formatResult } from "../report/console.ts";
import { reportSubject } from "../report/json-report.ts";
import { describeOrigin } from "../report/origin.ts";
import { openSubjects, type SubjectChoice } from "../subjects/select.ts";

export type { SubjectChoice };

/** Whether a problem about this subject's unavailability was already recorded (it was named explicitly). */
function alreadyReported(name: string, problems: string[]): boolean {
  return problems.some((problem) => problem.startsWith(`${name} is unavailable: `));
}

export async function runAgainstSubjects(
  scenarios: ExpandedScenario[],
  choice: SubjectChoice,
  options: { fullSuite: boolean; required?: string[] },
): Promise<{ report: Report; problems: string[] }> {
  const startedAt = new Date().toISOString();
  const report: Report = { version: 1, startedAt, finishedAt: startedAt, subjects: [], results: [] };
  const problems: string[] = [];
  for await (const opened of openSubjects(choice)) {
    if (!opened.subject) {
      console.log(`UNAVAILABLE ${opened.info.name}: ${opened.unavailableReason}`);
      report.subjects.push(reportSubject(opened.info, opened.unavailableReason));
      if (opened.explicitlyRequested) problems.push(`${opened.info.name} is unavailable: ${opened.unavailableReason}`);
      continue;
    }
    const { info } = opened.subject;
    console.log(`== ${info.name}: ${info.package} ${info.version} (${info.language}; ${describeOrigin(info.build)}), ${scenarios.length} scenarios`);
    report.subjects.push(reportSubject(info));
    try {
      report.results.push(...(await runSuite(scenarios, opened.subject, { baseline: opened.baseline, onResult: (result) => console.log(formatResult(result)) })));
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
    else if (!subject.available && !alreadyReported(name, problems)) problems.push(`${name} was required (--require) but is unavailable: ${subject.unavailableReason}`);
  }
  report.finishedAt = new Date().toISOString();
  return { report, problems };
}
