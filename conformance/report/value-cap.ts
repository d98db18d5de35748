// What a report stores per value is capped: a failing assertion on a 5 MB value once made a 20 MB
// JSON report. A value (a failure's expected or actual, a difference's) whose JSON text is over
// 64 KiB is stored as its beginning, its size and its sha256 (conformance/schema/report.schema.json
// #/$defs/truncatedValue); a message over 64 KiB keeps its beginning and a note with size and hash;
// a failure keeps its first 100 differences and says how many there were.
import { createHash } from "node:crypto";
import type { Difference, Failure, Result, TruncatedValue } from "../schema/report.types.ts";

export const maxStoredValueBytes = 64 * 1024;
/** Characters of a capped value's JSON text (or a capped message) that are kept. */
const keptPrefixChars = 2_048;
export const maxStoredDifferences = 100;

const sha256 = (text: string) => createHash("sha256").update(text).digest("hex");

export function capValue(value: unknown): unknown {
  if (value === undefined || value === null || (typeof value !== "object" && typeof value !== "string")) return value;
  const text = JSON.stringify(value);
  // Cheap first: a JSON text of n characters is at most 3n bytes of UTF-8.
  if (text.length * 3 <= maxStoredValueBytes) return value;
  const size = Buffer.byteLength(text);
  if (size <= maxStoredValueBytes) return value;
  const capped: TruncatedValue = { truncated: true, size, sha256: sha256(text), prefix: text.slice(0, keptPrefixChars) };
  return capped;
}

export function capText(text: string): string {
  if (text.length * 3 <= maxStoredValueBytes) return text;
  const size = Buffer.byteLength(text);
  if (size <= maxStoredValueBytes) return text;
  return `${text.slice(0, keptPrefixChars)}… [truncated: ${size} bytes in all, sha256 ${sha256(text)}]`;
}

/** Copies `expected` and `actual` when present (absent stays absent: "expected nothing" differs from undefined). */
function capValues<T extends { expected?: unknown; actual?: unknown }>(holder: T): T {
  const capped = { ...holder };
  if ("expected" in holder) capped.expected = capValue(holder.expected);
  if ("actual" in holder) capped.actual = capValue(holder.actual);
  return capped;
}

function capFailure(failure: Failure): Failure {
  const capped = capValues(failure);
  capped.message = capText(failure.message);
  if (failure.because !== undefined) capped.because = capText(failure.because);
  if (failure.diff) {
    capped.diff = failure.diff.slice(0, maxStoredDifferences).map((difference: Difference) => capValues(difference));
    if (failure.diff.length > maxStoredDifferences) capped.diffCount = failure.diffCount ?? failure.diff.length;
  }
  return capped;
}

/** The result as a report stores it. */
export function capResult<T extends Omit<Result, "expected" | "outcome">>(result: T): T {
  return {
    ...result,
    message: capText(result.message),
    ...(result.failures ? { failures: result.failures.map(capFailure) } : {}),
    ...(result.stderr !== undefined ? { stderr: capText(result.stderr) } : {}),
  };
}
