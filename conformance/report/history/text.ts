// The history's text both renderings share (markdown.ts, html.ts): a change, a cell, a clause's
// counts, a version's totals and notes, the title, the headings and the legend.
import type { Result } from "../../schema/report.types.ts";
import { cellState, cellStates } from "../cells.ts";
import { type Change, type ChangeKind, type ClauseCounts, type History, type HistoryColumn, type RowGroup } from "./model.ts";

/** "0.16.0: fail -> pass", and which versions in between had no result. */
export function describeChange(history: History, change: Change): string {
  const gap = change.gap.length ? ` (no result in ${change.gap.map((index) => history.columns[index].label).join(", ")})` : "";
  return `${history.columns[change.column].label}: ${change.from} -> ${change.to}${gap}`;
}

/** What a cell shows: the HTML matrix's plain labels (ok, FAIL, ERR, xfail, xerr, XPASS, skip, -), n/a for an unavailable version. */
export function historyCellLabel(column: HistoryColumn, result: Result | undefined): string {
  if (!result && !column.subject.available) return "n/a";
  return cellStates[cellState(result)].label;
}

/** A clause's counts in a column: pass / fail (errors counted as failures); n/a for an unavailable version, - for no result. */
export const clauseCell = (column: HistoryColumn, counts: ClauseCounts | undefined) =>
  counts ? `${counts.pass} / ${counts.fail + counts.error}` : column.subject.available ? "-" : "n/a";

export interface ColumnTotals {
  pass: number;
  fail: number;
  error: number;
  xpass: number;
  xfail: number;
  xerror: number;
  skip: number;
  seconds: string;
}

export function columnTotals(column: HistoryColumn): ColumnTotals {
  const results = [...column.results.values()];
  const count = (state: ReturnType<typeof cellState>) => results.filter((result) => cellState(result) === state).length;
  return {
    pass: count("pass"),
    fail: count("fail"),
    error: count("error"),
    xpass: count("xpass"),
    xfail: count("xfail"),
    xerror: count("xerror"),
    skip: count("skip"),
    seconds: (results.reduce((total, result) => total + result.durationMs, 0) / 1000).toFixed(1),
  };
}

/** What the runner substituted on a version (its results' notes): each note with how many scenarios it was given in. */
export function columnNotes(column: HistoryColumn): [string, number][] {
  const notes = new Map<string, number>();
  for (const result of column.results.values()) for (const note of result.notes ?? []) notes.set(note, (notes.get(note) ?? 0) + 1);
  return [...notes].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1));
}

/** What the versions table says of a version that ran: a handshake version other than the one asked for, the releases the runner says it drives. */
export function ranNotes(column: HistoryColumn): string[] {
  const notes: string[] = [];
  if (column.subject.name.includes("@") && column.version !== column.subject.version)
    notes.push(`its handshake says version ${column.subject.version}`);
  if (column.subject.supports) notes.push(`runner supports ${column.subject.supports}`);
  return notes;
}

export function changeCounts(history: History): Record<ChangeKind, number> & { scenarios: number } {
  const changes = history.rows.flatMap((row) => row.changes);
  const count = (kind: ChangeKind) => changes.filter((change) => change.kind === kind).length;
  return {
    scenarios: history.rows.filter((row) => row.changes.length).length,
    fix: count("fix"),
    regression: count("regression"),
    other: count("other"),
  };
}

/**
 * Where a release stopped needing what the runner substituted (or started to): a change the statuses
 * cannot show, because the runner's substitution (e.g. an empty toolkit a release required) made the
 * scenarios pass either way. Compared by how many scenarios carry notes, version to version.
 */
export function substitutionChanges(history: History): { column: number; before: number; after: number; example: string }[] {
  const available = history.columns.map((column, index) => ({ column, index })).filter(({ column }) => column.subject.available);
  const withNotes = (column: HistoryColumn) => [...column.results.values()].filter((result) => result.notes?.length);
  const changes: { column: number; before: number; after: number; example: string }[] = [];
  for (let i = 1; i < available.length; i++) {
    const before = withNotes(available[i - 1].column);
    const after = withNotes(available[i].column);
    if ((before.length === 0) === (after.length === 0)) continue;
    const example = (before[0] ?? after[0]).notes![0];
    changes.push({ column: available[i].index, before: before.length, after: after.length, example });
  }
  return changes;
}

export function substitutionSentences(history: History): string[] {
  return substitutionChanges(history).map(({ column, before, after, example }) =>
    after === 0
      ? `Fixed in ${history.columns[column].label}: the runner no longer substitutes anything (before it, ${before} scenarios needed a substitution, e.g. "${example}").`
      : `Changed in ${history.columns[column].label}: the runner has to substitute again, in ${after} scenarios (e.g. "${example}").`,
  );
}

export function title(history: History): string {
  const available = history.columns.map((column) => column.version);
  if (history.runners.length !== 1) return `History: ${history.runners.join(", ")}`;
  return `History: ${history.runners[0]}${available.length ? ` ${available[0]}${available.length > 1 ? ` to ${available.at(-1)}` : ""}` : ""}`;
}

export function changeSentence(history: History): string {
  const counts = changeCounts(history);
  const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? "" : word.endsWith("x") ? "es" : "s"}`;
  if (!counts.scenarios) return "No scenario changed status across these versions.";
  return `${plural(counts.scenarios, "scenario")} changed status: ${plural(counts.fix, "fix")}, ${plural(counts.regression, "regression")}, ${plural(counts.other, "other change")}.`;
}

export const groupHeadings: Record<RowGroup, string> = {
  changed: "Changed across versions",
  failing: "Same in every version: failing (not baselined everywhere)",
  baselined: "Same in every version: failing as each version's baseline expects",
  passing: "Same in every version: passing or skipped",
};

export const legendText =
  "ok pass · FAIL failure no baseline expects · ERR error no baseline expects · xfail / xerr failure / error the version's baseline expects · XPASS passed though baselined · skip capability not declared · - no result · n/a version unavailable";

export interface HistoryRenderOptions {
  /** The command line that produced the history, shown with it. */
  command?: string;
}
