// The assertion matchers of the scenario format, each defined once: what it needs to find at `at`
// (lint checks it where the type is declared: lint/assertions.ts) and how it judges the value found
// there (the engine: engine/assert.ts). scenario.schema.json's list of matchers is checked against this
// table (test/conformance/scenario/matchers.test.ts).
import type { Difference } from "../schema/report.types.ts";
import { deepEqual, differences, subsetDifferences } from "./json-compare.ts";

/** A matcher's judgement of the value at `at`: held, or why not (with the operand and the differences where they help). */
export type Verdict = { ok: true } | { ok: false; message: string; expected?: unknown; diff?: Difference[] };

export interface Matcher {
  /** The JSON types the value at `at` must have for the matcher to be able to hold, and what it does with it; none: any value. */
  operand?: { types: string[]; does: string };
  /** Judges `value`, which exists (a missing key fails every matcher but `absent` before this is asked). */
  judge(expected: unknown, value: unknown, at: string): Verdict;
}

const held: Verdict = { ok: true };

function typeOf(value: unknown): string {
  if (value === null) return "null";
  if (Array.isArray(value)) return "array";
  return typeof value;
}

const show = (value: unknown) => (value === undefined ? "nothing" : JSON.stringify(value));
const plural = (count: number) => `${count} difference${count > 1 ? "s" : ""}`;
const matches = (expected: unknown, actual: unknown) => subsetDifferences(expected, actual, "").length === 0;

/** The value is equal, or the differences; `message` says what kind of comparison failed. */
function compared(expected: unknown, found: Difference[], message: string): Verdict {
  return found.length ? { ok: false, message, expected, diff: found } : held;
}

function contains(negate: boolean): Matcher {
  return {
    operand: { types: ["array", "string"], does: "looks into a list or a string" },
    judge(wanted, value) {
      let found: boolean;
      if (typeof value === "string") {
        // Said apart from "not a list or a string": the value is a string, the operand is what is wrong.
        if (typeof wanted !== "string")
          return { ok: false, message: `a string holds only text, and ${show(wanted)} is not text`, expected: wanted };
        found = value.includes(wanted);
      } else if (Array.isArray(value))
        found = value.some((item) =>
          typeof item === "string" && typeof wanted === "string" ? item.includes(wanted) : matches(wanted, item),
        );
      else return { ok: false, message: `expected a list or a string, found ${typeOf(value)}` };
      if (found !== negate) return held;
      return {
        ok: false,
        message: negate ? `expected nothing matching ${show(wanted)}` : `expected something matching ${show(wanted)}`,
        expected: wanted,
      };
    },
  };
}

function bound(kind: "atMost" | "atLeast"): Matcher {
  return {
    operand: { types: ["number"], does: "compares a number" },
    judge(limit, value) {
      if (typeof value !== "number") return { ok: false, message: `expected a number, found ${typeOf(value)}` };
      const ok = kind === "atMost" ? value <= (limit as number) : value >= (limit as number);
      return ok
        ? held
        : { ok: false, message: `expected ${kind === "atMost" ? "at most" : "at least"} ${limit}, found ${value}`, expected: limit };
    },
  };
}

export const matchers = {
  equals: {
    judge: (expected, value, at) => {
      const found = differences(expected, value, at);
      return compared(expected, found, `not equal (${plural(found.length)})`);
    },
  },
  subset: {
    judge: (expected, value, at) => {
      const found = subsetDifferences(expected, value, at);
      return compared(expected, found, `does not contain the expected subset (${plural(found.length)})`);
    },
  },
  // absent and present judge whether the key exists, which engine/assert.ts settles before any judge runs.
  absent: { judge: (_expected, value) => ({ ok: false, message: `expected no key, found ${show(value)}` }) },
  present: { judge: () => held },
  setEquals: {
    operand: { types: ["array"], does: "compares a list" },
    judge(expected, value, at) {
      if (!Array.isArray(value)) return { ok: false, message: `expected a list, found ${typeOf(value)}` };
      const remaining = [...value];
      const missing = (expected as unknown[]).filter((item) => {
        const index = remaining.findIndex((candidate) => deepEqual(item, candidate));
        if (index < 0) return true;
        remaining.splice(index, 1);
        return false;
      });
      if (!missing.length && !remaining.length) return held;
      const diff: Difference[] = [
        ...missing.map((item) => ({ path: at, change: "missing" as const, expected: item })),
        ...remaining.map((item) => ({ path: at, change: "unexpected" as const, actual: item })),
      ];
      return {
        ok: false,
        message: `the sets differ: ${missing.length} missing, ${remaining.length} unexpected (order ignored)`,
        expected,
        diff,
      };
    },
  },
  orderedEquals: {
    operand: { types: ["array"], does: "compares a list" },
    judge(expected, value, at) {
      if (!Array.isArray(value)) return { ok: false, message: `expected a list, found ${typeOf(value)}` };
      return compared(expected, differences(expected, value, at), "the list differs (order matters here)");
    },
  },
  contains: contains(false),
  notContains: contains(true),
  length: {
    operand: {
      types: ["array", "string", "object"],
      does: "counts the elements of a list, the characters of a string or the keys of an object",
    },
    judge(expected, value) {
      const length =
        Array.isArray(value) || typeof value === "string"
          ? value.length
          : value && typeof value === "object"
            ? Object.keys(value).length
            : undefined;
      return length === expected
        ? held
        : { ok: false, message: `expected length ${expected}, found ${length === undefined ? typeOf(value) : length}`, expected };
    },
  },
  atMost: bound("atMost"),
  atLeast: bound("atLeast"),
  jsonEquals: {
    operand: { types: ["string"], does: "parses a string of JSON text" },
    judge(expected, value, at) {
      if (typeof value !== "string") return { ok: false, message: `expected a string of JSON text, found ${typeOf(value)}`, expected };
      let parsed: unknown;
      try {
        parsed = JSON.parse(value);
      } catch {
        return { ok: false, message: `${show(value)} is not JSON text`, expected };
      }
      const found = differences(expected, parsed, at);
      return compared(expected, found, `the JSON text parses to a different value (${plural(found.length)})`);
    },
  },
  matches: {
    operand: { types: ["string"], does: "tests a string" },
    judge(pattern, value) {
      if (typeof value !== "string") return { ok: false, message: `expected a string, found ${typeOf(value)}` };
      return new RegExp(pattern as string).test(value)
        ? held
        : { ok: false, message: `${show(value)} does not match /${pattern}/`, expected: pattern };
    },
  },
  type: {
    judge: (expected, value) =>
      typeOf(value) === expected ? held : { ok: false, message: `expected a ${expected}, found ${typeOf(value)}`, expected },
  },
} satisfies Record<string, Matcher>;

export type MatcherName = keyof typeof matchers;

export const matcherNames = Object.keys(matchers) as MatcherName[];

/** The matcher an assertion names (the first of its keys that is one), if any. */
export function matcherOf(assertion: object): MatcherName | undefined {
  return Object.keys(assertion).find((key): key is MatcherName => Object.hasOwn(matchers, key));
}
