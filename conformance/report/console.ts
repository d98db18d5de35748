// One line per scenario as it finishes; for a failure, the differences by JSON Pointer.
import type { Difference, Failure, Result } from "../schema/report.types.ts";

const useColor = process.stdout.isTTY && !process.env.NO_COLOR;
const paint = (code: number, text: string) => (useColor ? `\x1b[${code}m${text}\x1b[0m` : text);

const label: Record<Result["status"], string> = {
  pass: paint(32, "PASS "),
  fail: paint(31, "FAIL "),
  skip: paint(33, "SKIP "),
  error: paint(35, "ERROR"),
};

const short = (value: unknown, limit = 160) => {
  const text = value === undefined ? "(nothing)" : JSON.stringify(value);
  return text.length > limit ? `${text.slice(0, limit)}…` : text;
};

export function formatDifference(difference: Difference): string {
  if (difference.change === "missing") return `${difference.path}: missing, expected ${short(difference.expected)}`;
  if (difference.change === "unexpected") return `${difference.path}: unexpected ${short(difference.actual)}`;
  return `${difference.path}: expected ${short(difference.expected)}, got ${short(difference.actual)}`;
}

export function formatFailure(failure: Failure): string[] {
  const lines = [failure.message];
  if (failure.because) lines.push(`  because: ${failure.because}`);
  if (failure.diff?.length) for (const difference of failure.diff.slice(0, 20)) lines.push(`  ${formatDifference(difference)}`);
  else if (failure.actual !== undefined && failure.matcher !== "absent") lines.push(`  actual: ${short(failure.actual, 400)}`);
  if ((failure.diff?.length ?? 0) > 20) lines.push(`  … and ${failure.diff!.length - 20} more differences`);
  return lines;
}

export function formatResult(result: Result): string {
  const expectation =
    result.outcome === "unexpected-pass"
      ? paint(31, " (listed as an expected failure but passed: remove it from the baseline)")
      : result.expected && result.outcome === "as-expected"
        ? paint(90, ` (expected: ${result.expected.reason})`)
        : "";
  const head = `${label[result.status]} ${result.subject.padEnd(9)} ${result.scenario} ${paint(90, `${result.durationMs} ms`)}${expectation}`;
  const lines = [head];
  if (result.status === "skip") lines.push(`      ${result.message}`);
  if (result.status === "error" && !result.failures?.length) lines.push(`      ${result.message}`);
  if (result.outcome !== "as-expected" || result.status === "error") {
    for (const failure of result.failures ?? []) lines.push(...formatFailure(failure).map((line) => `      ${line}`));
    lines.push(`      at ${result.file}`);
    if (result.stderr) lines.push(`      stderr:\n${result.stderr.trimEnd().split("\n").slice(-20).map((line) => `        ${line}`).join("\n")}`);
  }
  return lines.join("\n");
}

/** The verdict, then the counts alone on the last line (the plain "N passed, N failed" form CI reads). */
export function formatSummary(results: Result[], problems: string[] = []): string {
  const count = (predicate: (result: Result) => boolean) => results.filter(predicate).length;
  const passed = count((result) => result.status === "pass");
  const failed = count((result) => result.status === "fail" || result.status === "error");
  const skipped = count((result) => result.status === "skip");
  const expected = count((result) => result.outcome === "as-expected" && (result.status === "fail" || result.status === "error"));
  const unexpected = count((result) => result.outcome !== "as-expected");
  const verdict = [
    expected ? `${expected} of the ${failed} failures are expected by a baseline` : undefined,
    unexpected ? paint(31, `${unexpected} unexpected (see above)`) : undefined,
    problems.length ? paint(31, `${problems.length} problem${problems.length > 1 ? "s" : ""} with subjects or baselines (see above)`) : undefined,
  ].filter(Boolean);
  if (!unexpected && !problems.length) verdict.push("nothing unexpected");
  return `${verdict.join("; ")}\nconformance: ${passed} passed, ${failed} failed, ${skipped} skipped`;
}
