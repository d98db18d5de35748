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
  return {
    scenario: result.scenario,
    subject: result.subject,
    status: result.status,
    outcome: result.outcome,
    checks: (result.failures ?? []).map((failure) => failure.check),
  };
}
