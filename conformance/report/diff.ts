// What changed between two reports (run, merge or one version's history report), per subject and
// scenario: new failures, new failing checks inside a scenario that already failed, fixes, scenarios
// added and removed, subjects that became unavailable. Statuses are compared raw, as in history: a
// baseline marks a transition as baselined but never hides it. What makes the reports not strictly
// comparable (another harness version, a changed scenario, a subject built differently or paired across
// names) is compared anyway and said in the notes.
import type { DiffSide, ReportDiff, ScenarioState, SubjectDiff, Transition, TransitionKind } from "../schema/diff.types.ts";
import type { Report, ReportSubject, Result, Status } from "../schema/report.types.ts";
import { describeOrigin } from "./origin.ts";
import { failedChecks } from "./baseline.ts";

const failing = (status: Status) => status === "fail" || status === "error";
/** The checks a result fails, each once, in a fixed order (two results are compared on them). */
const checksOf = (result: Result) => failedChecks(result).sort();
const without = (checks: string[], others: string[]) => checks.filter((check) => !others.includes(check));

function stateOf(result: Result): ScenarioState {
  const baselined = failing(result.status) && result.outcome === "as-expected" && result.expected !== undefined;
  return {
    status: result.status,
    ...(baselined ? { baselined } : {}),
    checks: checksOf(result),
    ...(result.message ? { message: result.message.slice(0, 500) } : {}),
  };
}

/** The scenario file, at the line of the first failure among `checks` (any failure when none is given). */
function placeOf(result: Result, checks?: string[]): string {
  const failure = (result.failures ?? []).find((each) => !checks || checks.includes(each.check));
  return failure?.line ? `${result.file}:${failure.line}` : result.file;
}

/** The step a failing run stopped at: a scenario stops at its first failing step, so the steps after it never ran. */
const stoppedAt = (result: Result) => Math.max(...(result.failures ?? []).map((failure) => failure.step));
const stepOf = (result: Result, check: string) => (result.failures ?? []).find((failure) => failure.check === check)?.step ?? 0;

type Found = { kind: TransitionKind; newChecks?: string[]; fixedChecks?: string[]; unreachedChecks?: string[] };

function kindOf(before: Result | undefined, after: Result | undefined): Found | undefined {
  if (!before) return { kind: failing(after!.status) ? "new-failure" : "added" };
  if (!after) return { kind: "removed" };
  const [was, is] = [failing(before.status), failing(after.status)];
  if (!was && is) return { kind: "new-failure" };
  if (was && !is) return { kind: after.status === "pass" ? "fixed" : "other" };
  if (was && is) {
    const [then, now] = [checksOf(before), checksOf(after)];
    const newChecks = without(now, then);
    // A check that no longer fails is fixed only if the after run got as far as its step.
    const gone = without(then, now);
    const fixedChecks = gone.filter((check) => stepOf(before, check) <= stoppedAt(after));
    const unreachedChecks = without(gone, fixedChecks);
    const checks = {
      ...(newChecks.length ? { newChecks } : {}),
      ...(fixedChecks.length ? { fixedChecks } : {}),
      ...(unreachedChecks.length ? { unreachedChecks } : {}),
    };
    if (newChecks.length) return { kind: "new-failing-check", ...checks };
    if (fixedChecks.length) return { kind: "fewer-failing-checks", ...checks };
  }
  return before.status === after.status ? undefined : { kind: "other" };
}

const regressions = new Set<TransitionKind>(["new-failure", "new-failing-check"]);

export function scenarioTransition(before: Result | undefined, after: Result | undefined): Transition | undefined {
  const found = kindOf(before, after);
  if (!found) return undefined;
  const latest = (after ?? before)!;
  const definitionChanged = before?.definition !== undefined && after?.definition !== undefined && before.definition !== after.definition;
  return {
    scenario: latest.scenario,
    kind: found.kind,
    regression: regressions.has(found.kind),
    // Where to look: the newly failing check's line; for a fix, the line that failed before.
    file:
      after && failing(after.status) ? placeOf(after, found.newChecks) : before && failing(before.status) ? placeOf(before) : latest.file,
    ...(before ? { before: stateOf(before) } : {}),
    ...(after ? { after: stateOf(after) } : {}),
    ...(found.newChecks ? { newChecks: found.newChecks } : {}),
    ...(found.fixedChecks ? { fixedChecks: found.fixedChecks } : {}),
    ...(found.unreachedChecks ? { unreachedChecks: found.unreachedChecks } : {}),
    ...(definitionChanged ? { definitionChanged } : {}),
  };
}

/** What ran, in one line: the version and where it came from. */
const originOf = (subject: ReportSubject) =>
  `${subject.package} ${subject.version} (${describeOrigin(subject.build) || "origin not recorded"})`;
const sameBuild = (a: ReportSubject, b: ReportSubject) =>
  a.version === b.version && a.package === b.package && JSON.stringify(a.build ?? {}) === JSON.stringify(b.build ?? {});

/** The runner a subject name stands for: "python" for python@0.16.0 and python@source. */
const runnerOf = (name: string) => name.split("@")[0];

/**
 * Subjects by name; then, among those left, one before and one after of the same runner (python@0.20.0
 * and python@0.21.0: two releases' history reports), said in the notes.
 */
export function pairSubjects(
  before: ReportSubject[],
  after: ReportSubject[],
): { pairs: [ReportSubject | undefined, ReportSubject | undefined][]; notes: string[] } {
  const notes: string[] = [];
  const pairs: [ReportSubject | undefined, ReportSubject | undefined][] = [];
  const leftBefore = before.filter((subject) => !after.some((other) => other.name === subject.name));
  const leftAfter = after.filter((subject) => !before.some((other) => other.name === subject.name));
  for (const subject of after) {
    const earlier = before.find((other) => other.name === subject.name);
    if (earlier) pairs.push([earlier, subject]);
  }
  for (const subject of [...leftAfter]) {
    const candidates = leftBefore.filter((other) => runnerOf(other.name) === runnerOf(subject.name));
    const rivals = leftAfter.filter((other) => runnerOf(other.name) === runnerOf(subject.name));
    if (candidates.length !== 1 || rivals.length !== 1) continue;
    pairs.push([candidates[0], subject]);
    leftBefore.splice(leftBefore.indexOf(candidates[0]), 1);
    leftAfter.splice(leftAfter.indexOf(subject), 1);
    notes.push(`${candidates[0].name} (before) and ${subject.name} (after) are compared as one subject: the same runner under two names`);
  }
  for (const subject of leftAfter) pairs.push([undefined, subject]);
  for (const subject of leftBefore) pairs.push([subject, undefined]);
  return { pairs, notes };
}

function subjectChange(before: ReportSubject | undefined, after: ReportSubject | undefined): SubjectDiff["change"] {
  if (!before) return "added";
  if (!after) return "removed";
  if (before.available && after.available) return "same";
  if (before.available) return "became-unavailable";
  return after.available ? "became-available" : "still-unavailable";
}

function diffSubject(
  before: ReportSubject | undefined,
  after: ReportSubject | undefined,
  beforeResults: Result[],
  afterResults: Result[],
): SubjectDiff {
  const change = subjectChange(before, after);
  const name = before && after && before.name !== after.name ? `${before.name} -> ${after.name}` : (after ?? before)!.name;
  const transitions: Transition[] = [];
  let unchanged = 0;
  // An unavailable side has no results: its scenarios neither failed nor went away. Compare only where both ran.
  if (change === "same") {
    const earlier = new Map(beforeResults.map((result) => [result.scenario, result]));
    const later = new Map(afterResults.map((result) => [result.scenario, result]));
    const scenarios = [...new Set([...earlier.keys(), ...later.keys()])].sort();
    for (const scenario of scenarios) {
      const transition = scenarioTransition(earlier.get(scenario), later.get(scenario));
      if (transition) transitions.push(transition);
      else unchanged++;
    }
  }
  const count = (kinds: TransitionKind[]) => transitions.filter((transition) => kinds.includes(transition.kind)).length;
  const reason =
    change === "became-available" ? before?.unavailableReason : after && !after.available ? after.unavailableReason : undefined;
  return {
    subject: name,
    ...(before ? { before: before.name } : {}),
    ...(after ? { after: after.name } : {}),
    change,
    ...(reason !== undefined ? { unavailableReason: reason } : {}),
    ...(before && after && !sameBuild(before, after) ? { origin: { before: originOf(before), after: originOf(after) } } : {}),
    // The new failures first: what a reader of a pull-request comment looks for.
    transitions: [
      ...transitions.filter((transition) => transition.regression),
      ...transitions.filter((transition) => !transition.regression),
    ],
    counts: {
      regressions: transitions.filter((transition) => transition.regression).length,
      fixes: count(["fixed", "fewer-failing-checks"]),
      added: count(["added"]) + transitions.filter((transition) => transition.kind === "new-failure" && !transition.before).length,
      removed: count(["removed"]),
      other: count(["other"]),
      unchanged,
    },
  };
}

const sideOf = (report: Report, file: string): DiffSide => ({
  file,
  startedAt: report.startedAt,
  finishedAt: report.finishedAt,
  ...(report.harness ? { harness: report.harness.version } : {}),
});

export function diffReports(
  before: Report,
  after: Report,
  files: { before: string; after: string } = { before: "before", after: "after" },
): ReportDiff {
  const { pairs, notes } = pairSubjects(before.subjects, after.subjects);
  const [beforeHarness, afterHarness] = [before.harness?.version, after.harness?.version];
  if (beforeHarness !== afterHarness) {
    notes.unshift(
      `the reports come from different harness versions (${beforeHarness ?? "not recorded"} before, ${afterHarness ?? "not recorded"} after): the suites may differ; compared anyway`,
    );
  }
  const resultsOf = (report: Report, subject: ReportSubject | undefined) =>
    subject ? report.results.filter((result) => result.subject === subject.name) : [];
  const subjects = pairs.map(([earlier, later]) => diffSubject(earlier, later, resultsOf(before, earlier), resultsOf(after, later)));
  for (const subject of subjects)
    if (subject.origin)
      notes.push(
        `${subject.subject} was built differently: ${subject.origin.before} before, ${subject.origin.after} after; compared anyway`,
      );
  // A changed definition is the scenario's doing, not the subject's: name each once, whatever its subjects.
  const changedDefinitions = definitionChanges(before, after);
  if (changedDefinitions.length) {
    const shown = changedDefinitions.slice(0, 10).join(", ");
    notes.push(
      `${changedDefinitions.length} scenario${changedDefinitions.length === 1 ? "" : "s"} changed definition between the reports ` +
        `(${shown}${changedDefinitions.length > 10 ? ", ..." : ""}): a transition there may be the scenario's, not the subject's`,
    );
  }
  const regressed = subjects.some((subject) => subject.counts.regressions > 0 || subject.change === "became-unavailable");
  return { version: 1, before: sideOf(before, files.before), after: sideOf(after, files.after), notes, subjects, regressed };
}

function definitionChanges(before: Report, after: Report): string[] {
  const definitions = new Map(before.results.map((result) => [result.scenario, result.definition]));
  const changed = new Set<string>();
  for (const result of after.results) {
    const earlier = definitions.get(result.scenario);
    if (earlier && result.definition && earlier !== result.definition) changed.add(result.scenario);
  }
  return [...changed].sort();
}
