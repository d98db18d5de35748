// What two runs of the same scenarios against the same subject must agree on, whatever --jobs was
// and however long each step took: the results' order, and each one's status, outcome and failed
// checks (check ids are stable across runs; messages may carry times and ports).
import type { Result } from "../schema/report.types.ts";

export interface ResultSignature {
  scenario: string;
  subject: string;
  status: Result["status"];
  outcome: Result["outcome"];
  checks: string[];
}

export function resultSignature(result: Result): ResultSignature {
  return { scenario: result.scenario, subject: result.subject, status: result.status, outcome: result.outcome, checks: (result.failures ?? []).map((failure) => failure.check) };
}

/** Per subject and scenario, the statuses several runs gave, in run order: the ones that differ between runs. */
export function statusesThatDiffer(runs: readonly (readonly Result[])[]): { subject: string; scenario: string; statuses: string[] }[] {
  const seen = new Map<string, { subject: string; scenario: string; statuses: string[] }>();
  runs.forEach((results, run) => {
    for (const result of results) {
      const key = `${result.subject}\u0000${result.scenario}`;
      const entry = seen.get(key) ?? { subject: result.subject, scenario: result.scenario, statuses: new Array<string>(runs.length).fill("(absent)") };
      entry.statuses[run] = result.status;
      seen.set(key, entry);
    }
  });
  return [...seen.values()].filter((entry) => new Set(entry.statuses).size > 1);
}
