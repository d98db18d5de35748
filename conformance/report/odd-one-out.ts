// The odd one out: in a report with several subjects, the scenarios where exactly one subject differs
// from all the others, in status or in the checks it fails. That is where a subject's bug most likely
// is (or the contract's text, when the one is the reference). With two subjects "exactly one differs"
// means nothing (either could be it), so it needs at least three that ran the scenario. A skip is no
// behaviour (the subject lacks a capability): skipped results take no part.
import type { Report, Result, Status } from "../schema/report.types.ts";
import { failedChecks } from "./baseline.ts";

export const minimumSubjects = 3;

export interface OddOne {
  scenario: string;
  subject: string;
  status: Status;
  /** The checks the odd subject fails (empty when it passes). */
  checks: string[];
  /** What every other subject did instead. */
  others: { status: Status; checks: string[]; subjects: string[] };
  file: string;
}

export type OddOneOut =
  | { applicable: false; reason: string }
  | { applicable: true; subjects: string[]; bySubject: Map<string, OddOne[]>; scenarios: Map<string, OddOne> };

/** The checks a result fails, each once, in a fixed order (two results are compared on them). */
const checksOf = (result: Result) => failedChecks(result).sort();
const signature = (result: Result) => `${result.status}\u0000${result.status === "pass" ? "" : checksOf(result).join("\u0001")}`;

/** The subjects with results, in the report's order. */
export const subjectsThatRan = (report: Report) =>
  report.subjects.filter((subject) => report.results.some((result) => result.subject === subject.name)).map((subject) => subject.name);

export function oddOneOut(report: Report): OddOneOut {
  const subjects = subjectsThatRan(report);
  if (subjects.length < minimumSubjects) {
    return {
      applicable: false,
      reason: `the odd one out needs at least ${minimumSubjects} subjects that ran (with two, either could be the one that differs); this report has ${subjects.length}`,
    };
  }
  const byScenario = new Map<string, Result[]>();
  for (const result of report.results)
    if (result.status !== "skip") byScenario.set(result.scenario, [...(byScenario.get(result.scenario) ?? []), result]);
  const bySubject = new Map<string, OddOne[]>(subjects.map((subject) => [subject, []]));
  const scenarios = new Map<string, OddOne>();
  for (const [scenario, results] of [...byScenario].sort(([a], [b]) => a.localeCompare(b))) {
    if (results.length < minimumSubjects) continue;
    const groups = new Map<string, Result[]>();
    for (const result of results) groups.set(signature(result), [...(groups.get(signature(result)) ?? []), result]);
    if (groups.size !== 2) continue;
    const [lone, rest] = [...groups.values()].sort((a, b) => a.length - b.length);
    if (lone.length !== 1) continue;
    const odd = lone[0];
    const entry: OddOne = {
      scenario,
      subject: odd.subject,
      status: odd.status,
      checks: checksOf(odd),
      others: { status: rest[0].status, checks: checksOf(rest[0]), subjects: rest.map((result) => result.subject) },
      file: odd.file,
    };
    bySubject.get(odd.subject)?.push(entry);
    scenarios.set(scenario, entry);
  }
  return { applicable: true, subjects, bySubject, scenarios };
}

/** For the console summary of run and merge: per subject, how many and which (the first few); the reason when it does not apply. */
export function formatOddOneOut(report: Report, shown = 5): string[] {
  const found = oddOneOut(report);
  // One subject: nothing to compare, and nothing worth a line; two: say why there is no list.
  if (!found.applicable) return subjectsThatRan(report).length === 2 ? [`odd one out: none computed: ${found.reason}`] : [];
  const lines = [`odd one out (scenarios where exactly one of ${found.subjects.length} subjects differs from all the others):`];
  for (const [subject, odd] of found.bySubject) {
    if (!odd.length) {
      lines.push(`  ${subject}: none`);
      continue;
    }
    const listed = odd
      .slice(0, shown)
      .map(
        (entry) =>
          `${entry.scenario} (${entry.status}${entry.checks.length ? ` on ${entry.checks[0]}` : ""}; the others ${entry.others.status})`,
      );
    lines.push(`  ${subject}: ${odd.length}: ${listed.join(", ")}${odd.length > shown ? `, ... and ${odd.length - shown} more` : ""}`);
  }
  return lines;
}
