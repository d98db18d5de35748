// The history matrix's model: one runner's releases side by side (`conformance history`), built from
// their JSON reports alone; text.ts, markdown.ts and html.ts render it. Rows are expanded scenario ids,
// columns versions in order; the rows whose status changes across versions come first, each with the
// release where it changed ("0.16.0: fail -> pass"). Changes compare raw statuses: a baseline differs
// per version, so it marks a cell (xfail, xerr) but never makes a change by itself.
import type { Report, Result, Status, ReportSubject } from "../../schema/report.types.ts";
import { compareVersions } from "../../common/versions.ts";
import { mergeReports } from "../json-report.ts";

/** A report subject's runner and version: "python@0.16.0", or the pinned "python" with its version in subject.version. */
export function subjectVersion(subject: Pick<ReportSubject, "name" | "version">): { runner: string; version: string } {
  const at = subject.name.indexOf("@");
  if (at > 0) return { runner: subject.name.slice(0, at), version: subject.name.slice(at + 1) };
  return { runner: subject.name, version: subject.version };
}

export interface HistoryColumn {
  subject: ReportSubject;
  runner: string;
  version: string;
  /** The column's heading: the version, or the subject name when the history holds several runners. */
  label: string;
  results: Map<string, Result>;
}

export type ChangeKind = "fix" | "regression" | "other";

export interface Change {
  /** The column where the new status first shows. */
  column: number;
  from: Status;
  to: Status;
  kind: ChangeKind;
  /** Columns between the two compared ones without a result (unavailable, or the scenario not run). */
  gap: number[];
}

/** changed: the status differs across versions; failing: the same failure everywhere, not all baselined; baselined: the same failure, baselined wherever it fails; passing: passes or skips everywhere. */
export type RowGroup = "changed" | "failing" | "baselined" | "passing";

export interface HistoryRow {
  scenario: string;
  spec: string[];
  cells: (Result | undefined)[];
  changes: Change[];
  group: RowGroup;
}

export interface ClauseCounts {
  pass: number;
  fail: number;
  error: number;
  skip: number;
  baselined: number;
}

export interface ClauseRow {
  clause: string;
  /** Per column; undefined where the column has no result for the clause. */
  counts: (ClauseCounts | undefined)[];
  /** The first column whose pass/fail counts differ from the column before it (with results), if any. */
  changedAt?: number;
}

export interface History {
  runners: string[];
  columns: HistoryColumn[];
  rows: HistoryRow[];
  clauses: ClauseRow[];
  startedAt: string;
  finishedAt: string;
}

const failing = (status: Status) => status === "fail" || status === "error";

function changeKind(from: Status, to: Status): ChangeKind {
  if (failing(from) && to === "pass") return "fix";
  if (from === "pass" && failing(to)) return "regression";
  return "other";
}

/** Status changes between neighbouring columns of the same runner that have a result. */
function changesOf(columns: HistoryColumn[], cells: (Result | undefined)[]): Change[] {
  const changes: Change[] = [];
  let previous: number | undefined;
  let gap: number[] = [];
  cells.forEach((cell, index) => {
    if (previous !== undefined && columns[previous].runner !== columns[index].runner) [previous, gap] = [undefined, []];
    if (!cell) {
      if (previous !== undefined) gap.push(index);
      return;
    }
    const before = previous !== undefined ? cells[previous]! : undefined;
    if (before && before.status !== cell.status)
      changes.push({ column: index, from: before.status, to: cell.status, kind: changeKind(before.status, cell.status), gap });
    [previous, gap] = [index, []];
  });
  return changes;
}

function groupOf(cells: (Result | undefined)[], changes: Change[]): RowGroup {
  if (changes.length) return "changed";
  const failed = cells.filter((cell): cell is Result => cell !== undefined && failing(cell.status));
  if (!failed.length) return "passing";
  return failed.every((cell) => cell.outcome === "as-expected") ? "baselined" : "failing";
}

export const groupOrder: RowGroup[] = ["changed", "failing", "baselined", "passing"];

/**
 * The history of the subjects in these reports (each version's report, or merged ones): one column
 * per subject, by runner and then by version. Reports are merged first, so a scenario listed twice
 * for one subject is an error naming both files.
 */
export function buildHistory(reports: Report[], files?: string[]): History {
  const merged = mergeReports(reports, files);
  const named = merged.subjects.map((subject) => ({ subject, ...subjectVersion(subject) }));
  const runners = [...new Set(named.map((each) => each.runner))];
  named.sort((a, b) => runners.indexOf(a.runner) - runners.indexOf(b.runner) || compareVersions(a.version, b.version));
  const columns: HistoryColumn[] = named.map(({ subject, runner, version }) => ({
    subject,
    runner,
    version,
    label: runners.length > 1 ? subject.name : version,
    results: new Map(merged.results.filter((result) => result.subject === subject.name).map((result) => [result.scenario, result])),
  }));
  const scenarios = [...new Set(columns.flatMap((column) => [...column.results.keys()]))].sort();
  const rows = scenarios.map((scenario) => {
    const cells = columns.map((column) => column.results.get(scenario));
    const changes = changesOf(columns, cells);
    return { scenario, spec: cells.find(Boolean)!.spec, cells, changes, group: groupOf(cells, changes) };
  });
  const firstChange = (row: HistoryRow) => row.changes[0]?.column ?? columns.length;
  rows.sort(
    (a, b) =>
      groupOrder.indexOf(a.group) - groupOrder.indexOf(b.group) || firstChange(a) - firstChange(b) || (a.scenario < b.scenario ? -1 : 1),
  );
  return { runners, columns, rows, clauses: clauseRows(columns, rows), startedAt: merged.startedAt, finishedAt: merged.finishedAt };
}

function clauseRows(columns: HistoryColumn[], rows: HistoryRow[]): ClauseRow[] {
  const clauses = [...new Set(rows.flatMap((row) => row.spec))].sort();
  const result = clauses.map((clause): ClauseRow => {
    const mine = rows.filter((row) => row.spec.includes(clause));
    const counts = columns.map((column, index): ClauseCounts | undefined => {
      const cells = mine.map((row) => row.cells[index]).filter((cell): cell is Result => cell !== undefined);
      if (!cells.length) return undefined;
      const count = (status: Status) => cells.filter((cell) => cell.status === status).length;
      return {
        pass: count("pass"),
        fail: count("fail"),
        error: count("error"),
        skip: count("skip"),
        baselined: cells.filter((cell) => failing(cell.status) && cell.outcome === "as-expected").length,
      };
    });
    let changedAt: number | undefined;
    let previous: number | undefined;
    counts.forEach((current, index) => {
      if (!current) return;
      if (previous !== undefined && columns[previous].runner !== columns[index].runner) previous = undefined;
      const before = previous !== undefined ? counts[previous]! : undefined;
      if (
        changedAt === undefined &&
        before &&
        (before.pass !== current.pass || before.fail + before.error !== current.fail + current.error)
      )
        changedAt = index;
      previous = index;
    });
    return { clause, counts, ...(changedAt !== undefined ? { changedAt } : {}) };
  });
  return result.sort(
    (a, b) =>
      Number(a.changedAt === undefined) - Number(b.changedAt === undefined) ||
      (a.changedAt ?? 0) - (b.changedAt ?? 0) ||
      (a.clause < b.clause ? -1 : 1),
  );
}
