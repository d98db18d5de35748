// The history matrix: one runner's releases side by side (`conformance history`), rendered from their
// JSON reports alone, as Markdown and as one self-contained HTML page. Rows are expanded scenario ids,
// columns versions in order; the rows whose status changes across versions come first, each with the
// release where it changed ("0.16.0: fail -> pass"). Changes compare raw statuses: a baseline differs
// per version, so it marks a cell (xfail, xerr) but never makes a change by itself.
import type { Report, Result, Status, ReportSubject } from "../schema/report.types.ts";
import { cellState, cellStates, statusCss } from "./html.ts";
import { mergeReports } from "./json-report.ts";
import { reasonDigest } from "./matrix.ts";

// ---------------------------------------------------------------------------------------------
// Versions

interface ParsedVersion {
  numbers: number[];
  /** -1 a pre-release (1.0.0-rc.1, 1.0.0rc1, 1.0.0.dev1), 0 the release, 1 a post-release (1.0.0.post1). */
  rank: number;
  suffix: string[];
}

const versionPattern = /^v?(\d+(?:\.\d+)*)(?:[-.]?([0-9A-Za-z][0-9A-Za-z.-]*))?(?:\+[0-9A-Za-z.-]+)?$/;

function parseVersion(version: string): ParsedVersion | undefined {
  const match = versionPattern.exec(version.trim());
  if (!match) return undefined;
  const suffix = match[2] ? match[2].split(/[.-]/).filter(Boolean) : [];
  return { numbers: match[1].split(".").map(Number), rank: !suffix.length ? 0 : /^post/i.test(suffix[0]) ? 1 : -1, suffix };
}

/** A semver-style label that looks like a version (digits first): what a version list may hold. */
export const looksLikeVersion = (text: string) => parseVersion(text) !== undefined;

/** Semver order (numerically per part, a pre-release before its release); what is no version sorts last, by text. */
export function compareVersions(a: string, b: string): number {
  const left = parseVersion(a);
  const right = parseVersion(b);
  if (!left || !right) return left ? -1 : right ? 1 : a.localeCompare(b);
  for (let index = 0; index < Math.max(left.numbers.length, right.numbers.length); index++) {
    const difference = (left.numbers[index] ?? 0) - (right.numbers[index] ?? 0);
    if (difference) return Math.sign(difference);
  }
  if (left.rank !== right.rank) return Math.sign(left.rank - right.rank);
  for (let index = 0; index < Math.max(left.suffix.length, right.suffix.length); index++) {
    const [x, y] = [left.suffix[index], right.suffix[index]];
    if (x === undefined || y === undefined) return x === undefined ? -1 : 1;
    const [xNumber, yNumber] = [/^\d+$/.test(x), /^\d+$/.test(y)];
    if (xNumber && yNumber && Number(x) !== Number(y)) return Math.sign(Number(x) - Number(y));
    if (xNumber !== yNumber) return xNumber ? -1 : 1;
    if (x !== y) return x < y ? -1 : 1;
  }
  return a.localeCompare(b);
}

/** Sorted semver-wise, each once. */
export const sortVersions = (versions: Iterable<string>) => [...new Set(versions)].sort(compareVersions);

/** A report subject's runner and version: "python@0.16.0", or the pinned "python" with its version in subject.version. */
export function subjectVersion(subject: Pick<ReportSubject, "name" | "version">): { runner: string; version: string } {
  const at = subject.name.indexOf("@");
  if (at > 0) return { runner: subject.name.slice(0, at), version: subject.name.slice(at + 1) };
  return { runner: subject.name, version: subject.version };
}

// ---------------------------------------------------------------------------------------------
// The model both renderings share

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
    if (before && before.status !== cell.status) changes.push({ column: index, from: before.status, to: cell.status, kind: changeKind(before.status, cell.status), gap });
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

const groupOrder: RowGroup[] = ["changed", "failing", "baselined", "passing"];

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
  rows.sort((a, b) => groupOrder.indexOf(a.group) - groupOrder.indexOf(b.group) || firstChange(a) - firstChange(b) || (a.scenario < b.scenario ? -1 : 1));
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
      return { pass: count("pass"), fail: count("fail"), error: count("error"), skip: count("skip"), baselined: cells.filter((cell) => failing(cell.status) && cell.outcome === "as-expected").length };
    });
    let changedAt: number | undefined;
    let previous: number | undefined;
    counts.forEach((current, index) => {
      if (!current) return;
      if (previous !== undefined && columns[previous].runner !== columns[index].runner) previous = undefined;
      const before = previous !== undefined ? counts[previous]! : undefined;
      if (changedAt === undefined && before && (before.pass !== current.pass || before.fail + before.error !== current.fail + current.error)) changedAt = index;
      previous = index;
    });
    return { clause, counts, ...(changedAt !== undefined ? { changedAt } : {}) };
  });
  return result.sort((a, b) => Number(a.changedAt === undefined) - Number(b.changedAt === undefined) || (a.changedAt ?? 0) - (b.changedAt ?? 0) || (a.clause < b.clause ? -1 : 1));
}

// ---------------------------------------------------------------------------------------------
// Text shared by both renderings

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
export const clauseCell = (column: HistoryColumn, counts: ClauseCounts | undefined) => (counts ? `${counts.pass} / ${counts.fail + counts.error}` : column.subject.available ? "-" : "n/a");

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
  if (column.subject.name.includes("@") && column.version !== column.subject.version) notes.push(`its handshake says version ${column.subject.version}`);
  if (column.subject.supports) notes.push(`runner supports ${column.subject.supports}`);
  return notes;
}

export function changeCounts(history: History): Record<ChangeKind, number> & { scenarios: number } {
  const changes = history.rows.flatMap((row) => row.changes);
  const count = (kind: ChangeKind) => changes.filter((change) => change.kind === kind).length;
  return { scenarios: history.rows.filter((row) => row.changes.length).length, fix: count("fix"), regression: count("regression"), other: count("other") };
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

function substitutionSentences(history: History): string[] {
  return substitutionChanges(history).map(({ column, before, after, example }) =>
    after === 0
      ? `Fixed in ${history.columns[column].label}: the runner no longer substitutes anything (before it, ${before} scenarios needed a substitution, e.g. "${example}").`
      : `Changed in ${history.columns[column].label}: the runner has to substitute again, in ${after} scenarios (e.g. "${example}").`,
  );
}

function title(history: History): string {
  const available = history.columns.map((column) => column.version);
  if (history.runners.length !== 1) return `History: ${history.runners.join(", ")}`;
  return `History: ${history.runners[0]}${available.length ? ` ${available[0]}${available.length > 1 ? ` to ${available.at(-1)}` : ""}` : ""}`;
}

function changeSentence(history: History): string {
  const counts = changeCounts(history);
  const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? "" : word.endsWith("x") ? "es" : "s"}`;
  if (!counts.scenarios) return "No scenario changed status across these versions.";
  return `${plural(counts.scenarios, "scenario")} changed status: ${plural(counts.fix, "fix")}, ${plural(counts.regression, "regression")}, ${plural(counts.other, "other change")}.`;
}

const groupHeadings: Record<RowGroup, string> = {
  changed: "Changed across versions",
  failing: "Same in every version: failing (not baselined everywhere)",
  baselined: "Same in every version: failing as each version's baseline expects",
  passing: "Same in every version: passing or skipped",
};

const legendText =
  "ok pass · FAIL failure no baseline expects · ERR error no baseline expects · xfail / xerr failure / error the version's baseline expects · XPASS passed though baselined · skip capability not declared · - no result · n/a version unavailable";

export interface HistoryRenderOptions {
  /** The command line that produced the history, shown with it. */
  command?: string;
}

// ---------------------------------------------------------------------------------------------
// Markdown

const cellText = (text: string) => text.replace(/\|/g, "\\|").replace(/\n/g, " ");

export function renderHistoryMarkdown(history: History, options: HistoryRenderOptions = {}): string {
  const { columns, rows } = history;
  const heads = columns.map((column) => cellText(column.label));
  const lines = [`# ${title(history)}`, ""];
  if (options.command) lines.push(`Produced by \`${options.command}\` (${history.startedAt} to ${history.finishedAt}).`, "");
  lines.push(changeSentence(history), "", ...substitutionSentences(history).flatMap((sentence) => [cellText(sentence), ""]), `Cells: ${legendText}.`, "", "## Versions", "");
  lines.push("| version | subject | package | status | ok | FAIL | ERR | XPASS | xfail | xerr | skip | time (s) |", "|---|---|---|---|---|---|---|---|---|---|---|---|");
  for (const column of columns) {
    const { subject } = column;
    const totals = columnTotals(column);
    const status = subject.available ? `ran${ranNotes(column).map((note) => ` (${cellText(note)})`).join("")}` : `unavailable: ${cellText(reasonDigest(subject.unavailableReason ?? ""))}`;
    const numbers = subject.available ? [totals.pass, totals.fail, totals.error, totals.xpass, totals.xfail, totals.xerror, totals.skip, totals.seconds] : Array(8).fill("-");
    lines.push(`| ${cellText(column.label)} | ${cellText(subject.name)} | ${cellText(subject.package)} | ${status} | ${numbers.join(" | ")} |`);
  }
  const notes = columns.map((column) => [column, columnNotes(column)] as const).filter(([, each]) => each.length);
  if (notes.length) {
    lines.push("", "What the runner substituted (its notes; scenarios in parentheses):", "");
    for (const [column, each] of notes) lines.push(`- ${cellText(column.label)}: ${each.map(([note, count]) => `${note} (${count})`).join("; ")}`);
  }
  for (const group of groupOrder) {
    const mine = rows.filter((row) => row.group === group);
    if (!mine.length) continue;
    const changed = group === "changed";
    lines.push("", `## ${groupHeadings[group]} (${mine.length})`, "");
    lines.push(`| scenario | ${heads.join(" | ")} |${changed ? " changed in |" : ""}`, `|---|${heads.map(() => "---").join("|")}|${changed ? "---|" : ""}`);
    for (const row of mine) {
      const cells = row.cells.map((cell, index) => historyCellLabel(columns[index], cell));
      lines.push(`| \`${row.scenario}\` | ${cells.join(" | ")} |${changed ? ` ${cellText(row.changes.map((change) => describeChange(history, change)).join("; "))} |` : ""}`);
    }
  }
  lines.push("", "## Per SPEC clause", "", "Each cell: scenarios passing / failing (errors and baselined failures included) among those citing the clause; clauses whose counts change come first.", "");
  lines.push(`| clause | ${heads.join(" | ")} | changed in |`, `|---|${heads.map(() => "---").join("|")}|---|`);
  for (const clause of history.clauses) {
    lines.push(`| ${clause.clause} | ${clause.counts.map((counts, index) => clauseCell(columns[index], counts)).join(" | ")} | ${clause.changedAt !== undefined ? cellText(columns[clause.changedAt].label) : ""} |`);
  }
  return `${lines.join("\n")}\n`;
}

// ---------------------------------------------------------------------------------------------
// HTML: one page, no outside request

const escapeHtml = (text: string) =>
  text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;").replace(/'/g, "&#39;");
const breakable = (text: string) => escapeHtml(text).replace(/\./g, ".<wbr>");

const styles = `
body{font:14px/1.4 system-ui,sans-serif;margin:1em 1.5em;color:#222}
table{border-collapse:collapse;margin:1em 0 2em}
caption{text-align:left;font-size:1.25em;font-weight:bold;padding:.3em 0}
th,td{border:1px solid #ccc;padding:.2em .45em;text-align:left;vertical-align:top}
thead th{position:sticky;top:0;background:#f3f3f3}
:is(#history,#clauses){table-layout:fixed;width:100%}
:is(#history,#clauses) th.v{width:6.5em;font-size:12px}
:is(#history,#clauses) th.changed-in{width:16em}
code{overflow-wrap:anywhere}
tbody th{font-weight:normal}
td.c,.number{font:12px/1.5 ui-monospace,"DejaVu Sans Mono",monospace;text-align:center;white-space:nowrap}
.number{text-align:right}
tr.group th{background:#fafafa;font-weight:bold;color:#444}
${statusCss}
.na{color:#999}
.changed{font-weight:bold}
.muted{color:#555}
summary{cursor:pointer}
pre{white-space:pre-wrap;max-width:100em;margin:.4em 0}
`;

function htmlCell(column: HistoryColumn, result: Result | undefined): string {
  const label = historyCellLabel(column, result);
  if (label === "n/a") return `<td class="c na" title="${escapeHtml(column.label)}: unavailable">n/a</td>`;
  const state = cellState(result);
  const message = result && state !== "pass" && state !== "skip" && result.message ? `: ${result.message.slice(0, 500)}` : "";
  const expected = result?.expected && state !== "pass" ? ` (baseline: ${result.expected.reason})` : "";
  return `<td class="c ${state}" title="${escapeHtml(`${column.label}: ${cellStates[state].meaning}${message}${expected}`)}">${escapeHtml(label)}</td>`;
}

export function renderHistoryHtml(history: History, options: HistoryRenderOptions = {}): string {
  const { columns, rows } = history;
  // Version labels never break at their dots; several runners' subject names may (before the @).
  const heads = columns.map((column) => `<th scope="col" class="v">${escapeHtml(column.label).replace(/@/g, "<wbr>@")}${column.subject.available ? "" : '<br><span class="unavailable">unavailable</span>'}</th>`).join("");
  const versionRows = columns.map((column) => {
    const { subject } = column;
    const totals = columnTotals(column);
    const numbers = [totals.pass, totals.fail, totals.error, totals.xpass, totals.xfail, totals.xerror, totals.skip, totals.seconds];
    const status = subject.available
      ? `ran${ranNotes(column).map((note) => ` <span class="muted">(${escapeHtml(note)})</span>`).join("")}`
      : `<details><summary><span class="unavailable">unavailable</span>: ${escapeHtml(reasonDigest(subject.unavailableReason ?? ""))}</summary><pre>${escapeHtml(subject.unavailableReason ?? "")}</pre></details>`;
    const notes = columnNotes(column);
    const noteList = notes.length ? `<ul>${notes.map(([note, count]) => `<li>${escapeHtml(note)} <span class="muted">(${count})</span></li>`).join("")}</ul>` : "";
    return `<tr><th scope="row">${escapeHtml(column.label)}</th><td>${escapeHtml(subject.name)}</td><td>${escapeHtml(subject.package)}</td><td>${status}</td>${numbers.map((number) => `<td class="number">${subject.available ? number : "-"}</td>`).join("")}<td>${noteList}</td></tr>`;
  });
  const numberHeads = ["ok", "FAIL", "ERR", "XPASS", "xfail", "xerr", "skip", "time (s)"].map((head) => `<th scope="col" class="number">${head}</th>`).join("");
  const bodies = groupOrder.map((group) => {
    const mine = rows.filter((row) => row.group === group);
    if (!mine.length) return "";
    const body = mine.map((row) => {
      const changedIn = row.changes.map((change) => escapeHtml(describeChange(history, change))).join("<br>");
      return `<tr class="${group}"><th scope="row"><code>${breakable(row.scenario)}</code></th>${row.cells.map((cell, index) => htmlCell(columns[index], cell)).join("")}<td>${changedIn}</td></tr>`;
    });
    return `<tbody id="group-${group}"><tr class="group"><th colspan="${columns.length + 2}">${escapeHtml(groupHeadings[group])} (${mine.length})</th></tr>${body.join("")}</tbody>`;
  });
  const clauseBody = history.clauses.map(
    (clause) =>
      `<tr${clause.changedAt !== undefined ? ' class="changed"' : ""}><th scope="row"><code>${breakable(clause.clause)}</code></th>${clause.counts.map((counts, index) => `<td class="c${counts ? "" : " na"}"${counts ? ` title="${counts.pass} pass, ${counts.fail} fail, ${counts.error} error, ${counts.skip} skip, ${counts.baselined} of the failures baselined"` : ""}>${clauseCell(columns[index], counts)}</td>`).join("")}<td>${clause.changedAt !== undefined ? escapeHtml(columns[clause.changedAt].label) : ""}</td></tr>`,
  );
  const legend = legendText.split(" · ").map((item) => `<span>${escapeHtml(item)}</span>`).join(" · ");
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>${escapeHtml(title(history))}</title>
<style>${styles}</style></head><body>
<h1>${escapeHtml(title(history))}</h1>
${options.command ? `<p class="muted">Produced by <code>${escapeHtml(options.command)}</code> (${escapeHtml(history.startedAt)} to ${escapeHtml(history.finishedAt)}).</p>` : ""}
<p><strong>${escapeHtml(changeSentence(history))}</strong></p>${substitutionSentences(history).map((sentence) => `<p>${escapeHtml(sentence)}</p>`).join("")}
<p class="muted">${legend}</p>
<table id="versions"><caption>Versions</caption><thead><tr><th scope="col">version</th><th scope="col">subject</th><th scope="col">package</th><th scope="col">status</th>${numberHeads}<th scope="col">runner notes</th></tr></thead><tbody>${versionRows.join("")}</tbody></table>
<table id="history"><caption>Scenarios</caption><thead><tr><th scope="col">scenario</th>${heads}<th scope="col" class="changed-in">changed in</th></tr></thead>
${bodies.join("\n")}
</table>
<table id="clauses"><caption>Per SPEC clause: passing / failing (errors and baselined failures included)</caption><thead><tr><th scope="col">clause</th>${heads}<th scope="col" class="changed-in">changed in</th></tr></thead><tbody>${clauseBody.join("")}</tbody></table>
</body></html>
`;
}
