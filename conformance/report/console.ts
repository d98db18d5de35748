// One line per scenario as it finishes; for a failure, the differences by JSON Pointer.
import type { Difference, Failure, Result } from "../schema/report.types.ts";
import { describeRepeat } from "./repeat.ts";

const useColor = process.stdout.isTTY && !process.env.NO_COLOR;
const paint = (code: number, text: string) => (useColor ? `\x1b[${code}m${text}\x1b[0m` : text);

const label: Record<Result["status"], string> = {
  pass: paint(32, "PASS "),
  fail: paint(31, "FAIL "),
  skip: paint(33, "SKIP "),
  error: paint(35, "ERROR"),
};

/** pytest's words for what a baseline expected: a log reader must not take a known divergence for a failure. */
const baselinedLabel: Partial<Record<Result["status"], string>> = {
  fail: paint(33, "XFAIL"),
  error: paint(33, "XERR "),
};

/** A failure or error its baseline lists (a stale entry, one that now fails on fewer checks, included). */
export const isBaselinedFailure = (result: Result) =>
  result.outcome !== "unexpected-failure" && result.outcome !== "flaky" && (result.status === "fail" || result.status === "error");

function labelOf(result: Result): string {
  // A listed scenario that fails, but no longer on every listed check, is still a failure: only its entry is stale.
  if (result.outcome === "unexpected-pass") return paint(31, result.status === "pass" ? "XPASS" : "STALE");
  if (result.outcome === "flaky") return paint(31, "FLAKY");
  return (isBaselinedFailure(result) && baselinedLabel[result.status]) || label[result.status];
}

const short = (value: unknown, limit = 160) => {
  const text = value === undefined ? "(nothing)" : JSON.stringify(value);
  return text.length > limit ? `${text.slice(0, limit)}…` : text;
};

/** JSON text with every character outside printable ASCII as its \\u escape. */
const escaped = (text: string) =>
  JSON.stringify(text).replace(/[^\x20-\x7e]/g, (char) => `\\u${char.charCodeAt(0).toString(16).padStart(4, "0")}`);

/** Where two strings first differ, escaped: non-ASCII text can print alike (NFC beside NFD, an invisible character), and so can two texts cut at `short`'s limit. */
function whereTheyDiffer(expected: string, actual: string): string {
  let index = 0;
  while (index < expected.length && index < actual.length && expected[index] === actual[index]) index++;
  const around = (text: string) => escaped(text.slice(Math.max(0, index - 20), index + 40));
  return `first difference at character ${index}, escaped: expected ${around(expected)}, got ${around(actual)}`;
}

export function formatDifference(difference: Difference): string {
  if (difference.change === "missing") return `${difference.path}: missing, expected ${short(difference.expected)}`;
  if (difference.change === "unexpected") return `${difference.path}: unexpected ${short(difference.actual)}`;
  const [expected, actual] = [short(difference.expected), short(difference.actual)];
  const line = `${difference.path}: expected ${expected}, got ${actual}`;
  if (typeof difference.expected !== "string" || typeof difference.actual !== "string") return line;
  const mayPrintAlike = expected === actual || /[^\x20-\x7e]/.test(difference.expected + difference.actual);
  return mayPrintAlike ? `${line} (${whereTheyDiffer(difference.expected, difference.actual)})` : line;
}

export function formatFailure(failure: Failure): string[] {
  const lines = [failure.message, `  check: ${failure.check}`];
  if (failure.because) lines.push(`  because: ${failure.because}`);
  if (failure.diff?.length) for (const difference of failure.diff.slice(0, 20)) lines.push(`  ${formatDifference(difference)}`);
  else if (failure.actual !== undefined && failure.matcher !== "absent") lines.push(`  actual: ${short(failure.actual, 400)}`);
  const differences = failure.diffCount ?? failure.diff?.length ?? 0;
  if (differences > 20) lines.push(`  … and ${differences - 20} more differences`);
  return lines;
}

/** The steps that did not run, those sharing a reason on one line: "not run: step 3 (a), step 4 (b): REASON". */
export function formatNotRun(notRun: NonNullable<Result["notRun"]>): string[] {
  const byReason = new Map<string, string[]>();
  for (const step of notRun) byReason.set(step.reason, [...(byReason.get(step.reason) ?? []), step.name]);
  return [...byReason].map(([reason, names]) => `not run: ${names.join(", ")}: ${reason}`);
}

const quoted = (checks: string[]) => checks.map((check) => JSON.stringify(check)).join(", ");

/** What the baseline says about this result, after its head line. */
function expectation(result: Result): string {
  const parts: string[] = [];
  if (result.unlistedChecks?.length) parts.push(`failed on checks its baseline entry does not list: ${quoted(result.unlistedChecks)}`);
  if (result.staleChecks?.length) parts.push(`listed checks now hold: ${quoted(result.staleChecks)}: remove them from the baseline entry`);
  if (result.outcome === "flaky")
    parts.unshift(`the ${result.repeat?.runs} runs disagreed and no baseline entry marked strict: false accepts that`);
  if (parts.length) return paint(31, ` (${parts.join("; ")})`);
  if (result.outcome === "unexpected-pass") return paint(31, " (listed as an expected failure but passed: remove it from the baseline)");
  if (result.expected && result.outcome === "as-expected") return paint(90, ` (expected: ${result.expected.reason})`);
  return "";
}

export function formatResult(result: Result): string {
  const head = `${labelOf(result)} ${result.subject.padEnd(9)} ${result.scenario} ${paint(90, `${result.durationMs} ms`)}${expectation(result)}`;
  const lines = [head];
  // --repeat: every result says how its runs ended; a flaky one in colour, as the rate a baseline quotes.
  if (result.repeat)
    lines.push(
      result.repeat.flaky
        ? paint(result.outcome === "flaky" ? 31 : 33, `      flaky: ${describeRepeat(result.repeat)}`)
        : paint(90, `      ${describeRepeat(result.repeat)}`),
    );
  if (result.status === "skip") lines.push(`      ${result.message}`);
  if (result.status === "error" && !result.failures?.length) lines.push(`      ${result.message}`);
  for (const note of result.notes ?? []) lines.push(paint(90, `      note: ${note}`));
  if (result.outcome !== "as-expected" || result.status === "error") {
    for (const failure of result.failures ?? []) lines.push(...formatFailure(failure).map((line) => `      ${line}`));
    lines.push(...formatNotRun(result.notRun ?? []).map((line) => `      ${line}`));
    lines.push(`      at ${result.file}`);
    if (result.stderr)
      lines.push(
        `      stderr:\n${result.stderr
          .trimEnd()
          .split("\n")
          .slice(-20)
          .map((line) => `        ${line}`)
          .join("\n")}`,
      );
  }
  return lines.join("\n");
}

/**
 * The verdict, then the counts alone on the last line (the plain "N passed, N failed" form CI reads):
 * failures and errors no baseline expects, with the baselined ones counted apart.
 */
export function formatSummary(results: Result[], problems: string[] = []): string {
  const count = (predicate: (result: Result) => boolean) => results.filter(predicate).length;
  const passed = count((result) => result.status === "pass");
  const failed = count((result) => result.status === "fail" && !isBaselinedFailure(result));
  const errors = count((result) => result.status === "error" && !isBaselinedFailure(result));
  const skipped = count((result) => result.status === "skip");
  const baselined = count(isBaselinedFailure);
  const stale = count((result) => result.outcome === "unexpected-pass" && result.status === "pass");
  const staleChecks = count((result) => result.outcome === "unexpected-pass" && result.status !== "pass");
  const unexpected = count((result) => result.outcome !== "as-expected");
  const flaky = count((result) => result.repeat?.flaky === true);
  const flakyAccepted = count((result) => result.repeat?.flaky === true && result.outcome !== "flaky");
  const verdict = [
    unexpected ? paint(31, `${unexpected} unexpected (see above)`) : undefined,
    problems.length
      ? paint(31, `${problems.length} problem${problems.length > 1 ? "s" : ""} with subjects or baselines (see above)`)
      : undefined,
  ].filter(Boolean);
  if (!unexpected && !problems.length) verdict.push("nothing unexpected");
  const counts = [
    `${passed} passed, ${failed} failed, ${errors} error${errors === 1 ? "" : "s"}, ${skipped} skipped`,
    baselined ? `${baselined} known divergence${baselined === 1 ? "" : "s"} (baselined)` : undefined,
    stale ? `${stale} passed though baselined` : undefined,
    staleChecks ? `${staleChecks} failed on fewer checks than baselined` : undefined,
    // Only with --repeat: a single run cannot tell, and its summary stays as it always was.
    results.some((result) => result.repeat)
      ? `${flaky} flaky${flakyAccepted ? ` (${flakyAccepted} accepted by strict: false entries)` : ""} in ${results.find((result) => result.repeat)?.repeat?.runs} runs each`
      : undefined,
  ].filter(Boolean);
  return `${verdict.join("; ")}\nconformance: ${counts.join("; ")}`;
}
