// JSON values compared as scenarios compare them: equality, the differences by JSON Pointer (so a
// failure reads "at /requests/0/body/temperature: expected 0.42, got 1"), a subset, and a pointer
// resolved in a document. The matchers (matchers.ts), record and smoke use them.
import diff from "microdiff";
import type { Difference } from "../schema/report.types.ts";
import { pathToPointer, pointerToPath } from "../common/json.ts";

export interface Resolved {
  exists: boolean;
  value: unknown;
}

export function resolvePointer(document: unknown, pointer: string): Resolved {
  let node: unknown = document;
  for (const key of pointerToPath(pointer)) {
    // A list's one own key that is not an index, "length", is no JSON key (RFC 6901 section 4: indexes only).
    const named = Array.isArray(node) ? typeof key === "number" : node !== null && typeof node === "object";
    if (!named || !Object.prototype.hasOwnProperty.call(node, key)) {
      return { exists: false, value: undefined };
    }
    node = (node as Record<string | number, unknown>)[key];
  }
  return { exists: true, value: node };
}

const join = (base: string, keys: (string | number)[]) => pathToPointer(keys, base);

/**
 * Equality of JSON values, which is what a scenario compares: not node's isDeepStrictEqual (the capture
 * tools' choice for their own objects), because there -0 differs from 0, and a report would then read
 * "expected 0, found 0" (JSON writes both as 0); and an object's prototype does not count here.
 */
export function deepEqual(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== typeof b || a === null || b === null || typeof a !== "object") return false;
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  if (Array.isArray(a)) return a.length === (b as unknown[]).length && a.every((item, i) => deepEqual(item, (b as unknown[])[i]));
  const aKeys = Object.keys(a as object);
  const bKeys = Object.keys(b as object);
  return (
    aKeys.length === bKeys.length &&
    aKeys.every(
      (key) =>
        Object.prototype.hasOwnProperty.call(b, key) && deepEqual((a as Record<string, unknown>)[key], (b as Record<string, unknown>)[key]),
    )
  );
}

/** Differences of `actual` from `expected` (both complete documents), by pointer under `base`. */
export function differences(expected: unknown, actual: unknown, base: string): Difference[] {
  if (
    expected === null ||
    actual === null ||
    typeof expected !== "object" ||
    typeof actual !== "object" ||
    Array.isArray(expected) !== Array.isArray(actual)
  ) {
    return deepEqual(expected, actual) ? [] : [{ path: base || "/", change: "changed", expected, actual }];
  }
  return diff(expected as Record<string, unknown>, actual as Record<string, unknown>).map((entry) => {
    const path = join(base, entry.path);
    if (entry.type === "CREATE") return { path, change: "unexpected", actual: entry.value };
    if (entry.type === "REMOVE") return { path, change: "missing", expected: entry.oldValue };
    return { path, change: "changed", expected: entry.oldValue, actual: entry.value };
  });
}

/** JSON subset: every key and element of `expected` matches; arrays must have the same length. */
export function subsetDifferences(expected: unknown, actual: unknown, base: string): Difference[] {
  if (Array.isArray(expected)) {
    if (!Array.isArray(actual)) return [{ path: base || "/", change: "changed", expected, actual }];
    const found: Difference[] = expected.flatMap((item, i) =>
      i < actual.length
        ? subsetDifferences(item, actual[i], join(base, [i]))
        : [{ path: join(base, [i]), change: "missing" as const, expected: item }],
    );
    for (let i = expected.length; i < actual.length; i++) found.push({ path: join(base, [i]), change: "unexpected", actual: actual[i] });
    return found;
  }
  if (expected !== null && typeof expected === "object") {
    if (actual === null || typeof actual !== "object" || Array.isArray(actual))
      return [{ path: base || "/", change: "changed", expected, actual }];
    return Object.entries(expected).flatMap(([key, value]) =>
      Object.prototype.hasOwnProperty.call(actual, key)
        ? subsetDifferences(value, (actual as Record<string, unknown>)[key], join(base, [key]))
        : [{ path: join(base, [key]), change: "missing" as const, expected: value }],
    );
  }
  return deepEqual(expected, actual) ? [] : [{ path: base || "/", change: "changed", expected, actual }];
}
