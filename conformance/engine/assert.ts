// The assertion matchers of the scenario format, each returning the differences by JSON Pointer so
// that a failure reads as "at /requests/0/body/temperature: expected 0.42, got 1".
import diff from "microdiff";
import type { Difference } from "../schema/report.types.ts";
import type { Assertion } from "../schema/scenario.types.ts";
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

export interface AssertionOutcome {
  ok: boolean;
  matcher: string;
  message: string;
  expected?: unknown;
  actual?: unknown;
  diff?: Difference[];
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

const matches = (expected: unknown, actual: unknown) => subsetDifferences(expected, actual, "").length === 0;

function typeOf(value: unknown): string {
  if (value === null) return "null";
  if (Array.isArray(value)) return "array";
  return typeof value;
}

const show = (value: unknown) => (value === undefined ? "nothing" : JSON.stringify(value));

/** Evaluate one assertion against its target document. */
export function evaluate(assertion: Assertion, target: unknown): AssertionOutcome {
  const at = assertion.at;
  const { exists, value } = resolvePointer(target, at);
  const where = at || "(whole document)";
  const fail = (matcher: string, message: string, extra: Partial<AssertionOutcome> = {}): AssertionOutcome => ({
    ok: false,
    matcher,
    message: `at ${where}: ${message}`,
    actual: exists ? value : undefined,
    ...extra,
  });
  const pass = (matcher: string): AssertionOutcome => ({ ok: true, matcher, message: "" });

  if ("absent" in assertion) return exists ? fail("absent", `expected no key, found ${show(value)}`) : pass("absent");
  if ("present" in assertion) return exists ? pass("present") : fail("present", "expected a key, found none");
  if (!exists) {
    const matcher =
      Object.keys(assertion).find(
        (key) => !["at", "fixture", "var", "when", "because", "eventuallyMs", "holdsForMs", "settled"].includes(key),
      ) ?? "?";
    return fail(matcher, "nothing there (the key does not exist)", {
      expected: (assertion as unknown as Record<string, unknown>)[matcher],
    });
  }
  if ("equals" in assertion) {
    const found = differences(assertion.equals, value, at);
    return found.length
      ? fail("equals", `not equal (${found.length} difference${found.length > 1 ? "s" : ""})`, { expected: assertion.equals, diff: found })
      : pass("equals");
  }
  if ("subset" in assertion) {
    const found = subsetDifferences(assertion.subset, value, at);
    return found.length
      ? fail("subset", `does not contain the expected subset (${found.length} difference${found.length > 1 ? "s" : ""})`, {
          expected: assertion.subset,
          diff: found,
        })
      : pass("subset");
  }
  if ("orderedEquals" in assertion) {
    if (!Array.isArray(value)) return fail("orderedEquals", `expected a list, found ${typeOf(value)}`);
    const found = differences(assertion.orderedEquals, value, at);
    return found.length
      ? fail("orderedEquals", "the list differs (order matters here)", { expected: assertion.orderedEquals, diff: found })
      : pass("orderedEquals");
  }
  if ("setEquals" in assertion) {
    if (!Array.isArray(value)) return fail("setEquals", `expected a list, found ${typeOf(value)}`);
    const expected = assertion.setEquals!;
    const remaining = [...value];
    const missing = expected.filter((item) => {
      const index = remaining.findIndex((candidate) => deepEqual(item, candidate));
      if (index < 0) return true;
      remaining.splice(index, 1);
      return false;
    });
    if (!missing.length && !remaining.length) return pass("setEquals");
    const found: Difference[] = [
      ...missing.map((item) => ({ path: at, change: "missing" as const, expected: item })),
      ...remaining.map((item) => ({ path: at, change: "unexpected" as const, actual: item })),
    ];
    return fail("setEquals", `the sets differ: ${missing.length} missing, ${remaining.length} unexpected (order ignored)`, {
      expected,
      diff: found,
    });
  }
  if ("contains" in assertion || "notContains" in assertion) {
    const negate = "notContains" in assertion;
    const matcher = negate ? "notContains" : "contains";
    const wanted = negate ? assertion.notContains : assertion.contains;
    let found: boolean;
    if (typeof value === "string") {
      // Said apart from "not a list or a string": the value is a string, the operand is what is wrong.
      if (typeof wanted !== "string")
        return fail(matcher, `a string holds only text, and ${show(wanted)} is not text`, { expected: wanted });
      found = value.includes(wanted);
    } else if (Array.isArray(value))
      found = value.some((item) =>
        typeof item === "string" && typeof wanted === "string" ? item.includes(wanted) : matches(wanted, item),
      );
    else return fail(matcher, `expected a list or a string, found ${typeOf(value)}`);
    if (found !== negate) return pass(matcher);
    return fail(matcher, negate ? `expected nothing matching ${show(wanted)}` : `expected something matching ${show(wanted)}`, {
      expected: wanted,
    });
  }
  if ("length" in assertion) {
    const length =
      Array.isArray(value) || typeof value === "string"
        ? value.length
        : value && typeof value === "object"
          ? Object.keys(value).length
          : undefined;
    return length === assertion.length
      ? pass("length")
      : fail("length", `expected length ${assertion.length}, found ${length === undefined ? typeOf(value) : length}`, {
          expected: assertion.length,
        });
  }
  if ("atMost" in assertion || "atLeast" in assertion) {
    const matcher = "atMost" in assertion ? "atMost" : "atLeast";
    const bound = (assertion as unknown as Record<string, number>)[matcher];
    if (typeof value !== "number") return fail(matcher, `expected a number, found ${typeOf(value)}`);
    const ok = matcher === "atMost" ? value <= bound : value >= bound;
    return ok
      ? pass(matcher)
      : fail(matcher, `expected ${matcher === "atMost" ? "at most" : "at least"} ${bound}, found ${value}`, { expected: bound });
  }
  if ("jsonEquals" in assertion) {
    if (typeof value !== "string")
      return fail("jsonEquals", `expected a string of JSON text, found ${typeOf(value)}`, { expected: assertion.jsonEquals });
    let parsed: unknown;
    try {
      parsed = JSON.parse(value);
    } catch {
      return fail("jsonEquals", `${show(value)} is not JSON text`, { expected: assertion.jsonEquals });
    }
    const found = differences(assertion.jsonEquals, parsed, at);
    return found.length
      ? fail("jsonEquals", `the JSON text parses to a different value (${found.length} difference${found.length > 1 ? "s" : ""})`, {
          expected: assertion.jsonEquals,
          diff: found,
        })
      : pass("jsonEquals");
  }
  if ("matches" in assertion) {
    if (typeof value !== "string") return fail("matches", `expected a string, found ${typeOf(value)}`);
    return new RegExp(assertion.matches!).test(value)
      ? pass("matches")
      : fail("matches", `${show(value)} does not match /${assertion.matches}/`, { expected: assertion.matches });
  }
  if ("type" in assertion) {
    return typeOf(value) === assertion.type
      ? pass("type")
      : fail("type", `expected a ${assertion.type}, found ${typeOf(value)}`, { expected: assertion.type });
  }
  return fail("?", "the assertion has no matcher");
}
