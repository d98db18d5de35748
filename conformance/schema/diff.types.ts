// Generated from conformance/schema/diff.schema.json by scripts/gen-types.ts. Do not edit; run `npm run gen:types`.

/**
 * same: available in both; became-unavailable / became-available; still-unavailable; added / removed: in one report only.
 *
 * This interface was referenced by `ReportDiff`'s JSON-Schema
 * via the `definition` "subjectChange".
 */
export type SubjectChange =
  "same" | "became-unavailable" | "became-available" | "still-unavailable" | "added" | "removed";
/**
 * new-failure: pass or skip (or a scenario new to the report) now fails or errs; new-failing-check: failing before and after, on a check it did not fail before; fixed: failing before, passes now; fewer-failing-checks: still failing, on fewer checks and no new one; added / removed: the scenario is in one report only (an added failing one is a new-failure); other: any other status change (pass to skip, fail to error on the same checks).
 *
 * This interface was referenced by `ReportDiff`'s JSON-Schema
 * via the `definition` "transitionKind".
 */
export type TransitionKind =
  "new-failure" | "new-failing-check" | "fixed" | "fewer-failing-checks" | "added" | "removed" | "other";

/**
 * What changed between two conformance reports (conformance diff BEFORE AFTER --json FILE): per subject, each scenario whose status or failing checks changed. Statuses are compared raw: a baseline marks a transition (baselined) but never hides one.
 */
export interface ReportDiff {
  version: 1;
  before: DiffSide;
  after: DiffSide;
  /**
   * What makes the two reports not strictly comparable, compared anyway: different harness versions, scenarios whose definition changed, subjects paired across names, subjects built differently.
   */
  notes: string[];
  subjects: SubjectDiff[];
  /**
   * True when anything got worse: a new failure, a new failing check, a subject that became unavailable, an added scenario that fails. diff exits 1 then.
   */
  regressed: boolean;
}
/**
 * This interface was referenced by `ReportDiff`'s JSON-Schema
 * via the `definition` "side".
 */
export interface DiffSide {
  file: string;
  startedAt: string;
  finishedAt: string;
  /**
   * The harness version that wrote the report, when it says.
   */
  harness?: string;
}
/**
 * This interface was referenced by `ReportDiff`'s JSON-Schema
 * via the `definition` "subjectDiff".
 */
export interface SubjectDiff {
  /**
   * The subject's name after (before, when removed); 'a -> b' when paired across names.
   */
  subject: string;
  /**
   * Its name in the before report.
   */
  before?: string;
  /**
   * Its name in the after report.
   */
  after?: string;
  change: SubjectChange;
  /**
   * Why it is unavailable in the after report (or in the before one, when it became available).
   */
  unavailableReason?: string;
  /**
   * Set when the subject was built differently: what ran before and after (package version, build mode, source hash, commit).
   */
  origin?: {
    before: string;
    after: string;
  };
  transitions: Transition[];
  counts: {
    regressions: number;
    fixes: number;
    added: number;
    removed: number;
    other: number;
    unchanged: number;
  };
}
/**
 * This interface was referenced by `ReportDiff`'s JSON-Schema
 * via the `definition` "transition".
 */
export interface Transition {
  scenario: string;
  kind: TransitionKind;
  regression: boolean;
  /**
   * The scenario file, with the line of the first newly failing check when there is one (file:line).
   */
  file: string;
  before?: ScenarioState;
  after?: ScenarioState;
  /**
   * Checks failing after that did not fail before.
   */
  newChecks?: string[];
  /**
   * Checks failing before that held after (the after run reached their step).
   */
  fixedChecks?: string[];
  /**
   * Checks failing before whose step the after run never reached (a scenario stops at its first failing step): neither fixed nor failing.
   */
  unreachedChecks?: string[];
  /**
   * The scenario's definition differs between the reports: the scenario changed, not (only) the subject.
   */
  definitionChanged?: boolean;
}
/**
 * This interface was referenced by `ReportDiff`'s JSON-Schema
 * via the `definition` "state".
 */
export interface ScenarioState {
  status: "pass" | "fail" | "skip" | "error";
  /**
   * A baseline listed the failure and it failed as listed.
   */
  baselined?: boolean;
  /**
   * The checks that failed.
   */
  checks: string[];
  message?: string;
}
