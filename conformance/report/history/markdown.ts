// The history as Markdown (history.md): the versions table, the scenario rows by group, the clauses.
import { reasonDigest } from "../matrix.ts";
import { groupOrder, type History } from "./model.ts";
import {
  changeSentence,
  clauseCell,
  columnNotes,
  columnTotals,
  describeChange,
  groupHeadings,
  historyCellLabel,
  legendText,
  ranNotes,
  substitutionSentences,
  title,
  type HistoryRenderOptions,
} from "./text.ts";

const cellText = (text: string) => text.replace(/\|/g, "\\|").replace(/\n/g, " ");

export function renderHistoryMarkdown(history: History, options: HistoryRenderOptions = {}): string {
  const { columns, rows } = history;
  const heads = columns.map((column) => cellText(column.label));
  const lines = [`# ${title(history)}`, ""];
  if (options.command) lines.push(`Produced by \`${options.command}\` (${history.startedAt} to ${history.finishedAt}).`, "");
  lines.push(
    changeSentence(history),
    "",
    ...substitutionSentences(history).flatMap((sentence) => [cellText(sentence), ""]),
    `Cells: ${legendText}.`,
    "",
    "## Versions",
    "",
  );
  lines.push(
    "| version | subject | package | status | ok | FAIL | ERR | XPASS | xfail | xerr | skip | time (s) |",
    "|---|---|---|---|---|---|---|---|---|---|---|---|",
  );
  for (const column of columns) {
    const { subject } = column;
    const totals = columnTotals(column);
    const status = subject.available
      ? `ran${ranNotes(column)
          .map((note) => ` (${cellText(note)})`)
          .join("")}`
      : `unavailable: ${cellText(reasonDigest(subject.unavailableReason ?? ""))}`;
    const numbers = subject.available
      ? [totals.pass, totals.fail, totals.error, totals.xpass, totals.xfail, totals.xerror, totals.skip, totals.seconds]
      : Array(8).fill("-");
    lines.push(
      `| ${cellText(column.label)} | ${cellText(subject.name)} | ${cellText(subject.package)} | ${status} | ${numbers.join(" | ")} |`,
    );
  }
  const notes = columns.map((column) => [column, columnNotes(column)] as const).filter(([, each]) => each.length);
  if (notes.length) {
    lines.push("", "What the runner substituted (its notes; scenarios in parentheses):", "");
    for (const [column, each] of notes)
      lines.push(`- ${cellText(column.label)}: ${each.map(([note, count]) => `${note} (${count})`).join("; ")}`);
  }
  for (const group of groupOrder) {
    const mine = rows.filter((row) => row.group === group);
    if (!mine.length) continue;
    const changed = group === "changed";
    lines.push("", `## ${groupHeadings[group]} (${mine.length})`, "");
    lines.push(
      `| scenario | ${heads.join(" | ")} |${changed ? " changed in |" : ""}`,
      `|---|${heads.map(() => "---").join("|")}|${changed ? "---|" : ""}`,
    );
    for (const row of mine) {
      const cells = row.cells.map((cell, index) => historyCellLabel(columns[index], cell));
      lines.push(
        `| \`${row.scenario}\` | ${cells.join(" | ")} |${changed ? ` ${cellText(row.changes.map((change) => describeChange(history, change)).join("; "))} |` : ""}`,
      );
    }
  }
  lines.push(
    "",
    "## Per SPEC clause",
    "",
    "Each cell: scenarios passing / failing (errors and baselined failures included) among those citing the clause; clauses whose counts change come first.",
    "",
  );
  lines.push(`| clause | ${heads.join(" | ")} | changed in |`, `|---|${heads.map(() => "---").join("|")}|---|`);
  for (const clause of history.clauses) {
    lines.push(
      `| ${clause.clause} | ${clause.counts.map((counts, index) => clauseCell(columns[index], counts)).join(" | ")} | ${clause.changedAt !== undefined ? cellText(columns[clause.changedAt].label) : ""} |`,
    );
  }
  return `${lines.join("\n")}\n`;
}
