// The result table: one row per figure and subject, measured against its target, PASS or MISS.
import type { Summary } from "./stats.ts";

export type Stat = "median" | "p95" | "max" | "min";

export interface Target {
  /** Which statistic of the distribution is held to the target. */
  stat: Stat;
  op: "<=" | ">=";
  value: number;
}

export interface Row {
  /** The measurement group `--only` selects: suite, echo, abort, mcp-load, client, memory. */
  group: string;
  /** What is measured, e.g. "suite wall time ts / in-process". */
  figure: string;
  /** reference (in-process), ts, python, ... */
  subject: string;
  unit: string;
  summary?: Summary;
  target?: Target;
  /** The subject could not be measured: the reason, printed instead of figures. */
  unavailable?: string;
  /** One line of context (sample sizes, what a sample is), printed under the table. */
  note?: string;
}

export type Verdict = "PASS" | "MISS" | "info" | "n/a";

export function verdict(row: Row): Verdict {
  if (row.unavailable !== undefined || !row.summary || row.summary.n === 0) return "n/a";
  if (!row.target) return "info";
  const measured = row.summary[row.target.stat];
  if (!Number.isFinite(measured)) return "MISS";
  return (row.target.op === "<=" ? measured <= row.target.value : measured >= row.target.value) ? "PASS" : "MISS";
}

/** Numbers at a precision that suits their size: 12,345 / 123 / 12.3 / 1.23 / 0.012. */
export function formatNumber(value: number): string {
  if (!Number.isFinite(value)) return "-";
  const magnitude = Math.abs(value);
  if (Number.isInteger(value)) return value.toLocaleString("en-US");
  if (magnitude >= 1000) return Math.round(value).toLocaleString("en-US");
  if (magnitude >= 100) return value.toFixed(0);
  if (magnitude >= 10) return value.toFixed(1);
  if (magnitude >= 0.1 || magnitude === 0) return value.toFixed(2);
  return value.toPrecision(2);
}

export function formatTarget(target: Target | undefined): string {
  return target ? `${target.stat} ${target.op} ${formatNumber(target.value)}` : "-";
}

// eslint-disable-next-line no-control-regex -- terminal colour codes are what it strips
const ansi = /\u001b\[[0-9;]*m/g;
const telling = /\[ERROR\] Failed|error|forbidden|not found|not available|unavailable|denied|refused|timed out|too old/i;
const noise = /^(WARNING|\[ERROR\]\s*$|\[ERROR\] (To see|Re-run|For more|\[Help))|attempt \d+ (of \d+ )?failed/i;

/**
 * One line for a table cell from a reason that may be an installer's whole output: its first line,
 * then the line that says what went wrong (else the last line), cut from the front to keep its end.
 */
export function shortReason(reason: string, width = 110): string {
  const lines = reason
    .replace(ansi, "")
    .split("\n")
    .map((line) => line.trim())
    .filter(Boolean);
  if (!lines.length) return "(no reason given)";
  const [head, ...rest] = lines;
  const candidates = rest.filter((line) => !noise.test(line));
  const detail = candidates.find((line) => telling.test(line)) ?? candidates.at(-1);
  const text = detail ? `${head} ${detail}` : head;
  if (text.length <= width) return text;
  if (!detail || head.length > width / 2) return `${text.slice(0, width - 3)}...`;
  return `${head} ...${detail.slice(-(width - head.length - 4))}`;
}

const headers = ["figure", "subject", "unit", "n", "min", "median", "p95", "max", "target", "measured", "result"] as const;

export function tableCells(row: Row): string[] {
  const figure = row.figure;
  if (row.unavailable !== undefined) return [figure, row.subject, row.unit, `unavailable: ${shortReason(row.unavailable)}`];
  const s = row.summary;
  const cell = (stat: Stat | "n") => (s ? (stat === "n" ? String(s.n) : formatNumber(s[stat])) : "-");
  return [
    figure,
    row.subject,
    row.unit,
    cell("n"),
    cell("min"),
    cell("median"),
    cell("p95"),
    cell("max"),
    formatTarget(row.target),
    row.target && s ? formatNumber(s[row.target.stat]) : "-",
    verdict(row),
  ];
}

/** A plain-text table (also valid as a Markdown table), columns padded to their widest cell. */
export function formatTable(rows: readonly Row[]): string {
  const body = rows.map(tableCells);
  const full = body.filter((cells) => cells.length === headers.length);
  const widths = headers.map((header, column) => Math.max(header.length, ...full.map((cells) => cells[column].length)));
  const numeric = new Set([3, 4, 5, 6, 7, 9]);
  const line = (cells: readonly string[]) => {
    if (cells.length !== headers.length) {
      // An unavailable row: figure, subject, unit, then the reason across the remaining columns.
      const lead = cells.slice(0, 3).map((cell, column) => cell.padEnd(widths[column]));
      return `| ${[...lead, cells[3]].join(" | ")} |`;
    }
    return `| ${cells.map((cell, column) => (numeric.has(column) ? cell.padStart(widths[column]) : cell.padEnd(widths[column]))).join(" | ")} |`;
  };
  const rule = `|${widths.map((width, column) => (numeric.has(column) ? `${"-".repeat(width + 1)}:` : "-".repeat(width + 2))).join("|")}|`;
  return [line(headers), rule, ...body.map(line)].join("\n");
}

/** PASS/MISS counts for the closing line. */
export function tally(rows: readonly Row[]): Record<Verdict, number> {
  const counts: Record<Verdict, number> = { PASS: 0, MISS: 0, info: 0, "n/a": 0 };
  for (const row of rows) counts[verdict(row)] += 1;
  return counts;
}
