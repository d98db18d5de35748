// Each matcher's whole outcome: the verdict, the matcher a report names, and the message, expected,
// actual and diff a port maintainer reads when it fails (the message is the product).
import { describe, expect, it } from "vitest";
import { evaluate } from "../../../conformance/engine/assert.ts";
import type { Assertion } from "../../../conformance/schema/scenario.types.ts";

const items = [
  { name: "a", size: 1 },
  { name: "b", size: 2 },
];
const doc = {
  value: {
    n: 5,
    flag: true,
    text: "hello world",
    names: ["srv_a", "srv_b"],
    mixed: [2, "srv_x"],
    items,
    obj: { a: 1, b: 2 },
    nothing: null,
    json: '{"n":5,"doubled":10}',
    broken: '{"n":',
  },
};
const passed = (matcher: string) => ({ ok: true, matcher, message: "" });
const check = (assertion: Assertion, target: unknown = doc) => evaluate(assertion, target);

describe("absent and present", () => {
  it("absent passes on no key and fails on any value, showing it", () => {
    expect(check({ at: "/value/none", absent: true })).toEqual(passed("absent"));
    expect(check({ at: "/value/n", absent: true })).toEqual({
      ok: false,
      matcher: "absent",
      message: "at /value/n: expected no key, found 5",
      actual: 5,
    });
    expect(check({ at: "/u", absent: true }, { u: undefined })).toEqual({
      ok: false,
      matcher: "absent",
      message: "at /u: expected no key, found nothing",
    });
  });

  it("present passes on any value, null included, and fails on no key", () => {
    expect(check({ at: "/value/nothing", present: true })).toEqual(passed("present"));
    expect(check({ at: "/value/none", present: true })).toEqual({
      ok: false,
      matcher: "present",
      message: "at /value/none: expected a key, found none",
    });
  });
});

describe("a key that does not exist", () => {
  it("fails the value matcher, named after it whatever keys come first, with what it expected", () => {
    const before: Record<string, unknown> = {
      fixture: "server",
      var: "v",
      when: { "path.style": "openai" },
      because: "why",
      eventuallyMs: 10,
      holdsForMs: 10,
      settled: true,
    };
    for (const [key, sample] of Object.entries(before)) {
      const assertion = { at: "/value/none", [key]: sample, equals: 1 } as unknown as Assertion;
      expect(check(assertion), key).toEqual({
        ok: false,
        matcher: "equals",
        message: "at /value/none: nothing there (the key does not exist)",
        expected: 1,
      });
    }
  });

  it("an assertion without a matcher (lint rejects it) fails, never passes", () => {
    expect(check({ at: "/value/none" } as Assertion)).toEqual({
      ok: false,
      matcher: "?",
      message: "at /value/none: nothing there (the key does not exist)",
    });
    expect(check({ at: "/value/n" } as Assertion)).toEqual({
      ok: false,
      matcher: "?",
      message: "at /value/n: the assertion has no matcher",
      actual: 5,
    });
  });
});

describe("equals, subset and jsonEquals", () => {
  it("equals passes on the same value and counts the differences otherwise", () => {
    expect(check({ at: "/value/obj", equals: { b: 2, a: 1 } })).toEqual(passed("equals"));
    expect(check({ at: "/value/obj", equals: { a: 1 } })).toEqual({
      ok: false,
      matcher: "equals",
      message: "at /value/obj: not equal (1 difference)",
      expected: { a: 1 },
      actual: { a: 1, b: 2 },
      diff: [{ path: "/value/obj/b", change: "unexpected", actual: 2 }],
    });
    expect(check({ at: "/value/obj", equals: { a: 2, c: 3 } })).toMatchObject({
      message: "at /value/obj: not equal (3 differences)",
    });
  });

  it("equals on the whole document says so, and a primitive's difference sits at '/'", () => {
    expect(check({ at: "", equals: 5 }, 4)).toEqual({
      ok: false,
      matcher: "equals",
      message: "at (whole document): not equal (1 difference)",
      expected: 5,
      actual: 4,
      diff: [{ path: "/", change: "changed", expected: 5, actual: 4 }],
    });
    expect(check({ at: "/value/n", equals: {} })).toMatchObject({ ok: false, diff: [{ path: "/value/n", change: "changed" }] });
  });

  it("subset passes on a part and counts the differences otherwise", () => {
    expect(check({ at: "/value/items", subset: [{ name: "a" }, { size: 2 }] })).toEqual(passed("subset"));
    expect(check({ at: "/value/obj", subset: { a: 2 } })).toEqual({
      ok: false,
      matcher: "subset",
      message: "at /value/obj: does not contain the expected subset (1 difference)",
      expected: { a: 2 },
      actual: { a: 1, b: 2 },
      diff: [{ path: "/value/obj/a", change: "changed", expected: 2, actual: 1 }],
    });
    expect(check({ at: "/value/obj", subset: { a: 2, c: 3 } })).toMatchObject({
      message: "at /value/obj: does not contain the expected subset (2 differences)",
    });
  });

  it("jsonEquals parses the text, and says when it is not text or not JSON", () => {
    expect(check({ at: "/value/json", jsonEquals: { doubled: 10, n: 5 } })).toEqual(passed("jsonEquals"));
    expect(check({ at: "/value/json", jsonEquals: { doubled: 11, n: 5 } })).toEqual({
      ok: false,
      matcher: "jsonEquals",
      message: "at /value/json: the JSON text parses to a different value (1 difference)",
      expected: { doubled: 11, n: 5 },
      actual: '{"n":5,"doubled":10}',
      diff: [{ path: "/value/json/doubled", change: "changed", expected: 11, actual: 10 }],
    });
    expect(check({ at: "/value/json", jsonEquals: { n: 6 } })).toMatchObject({
      message: "at /value/json: the JSON text parses to a different value (2 differences)",
    });
    expect(check({ at: "/value/broken", jsonEquals: { n: 5 } })).toEqual({
      ok: false,
      matcher: "jsonEquals",
      message: 'at /value/broken: "{\\"n\\":" is not JSON text',
      expected: { n: 5 },
      actual: '{"n":',
    });
    expect(check({ at: "/value/obj", jsonEquals: { a: 1 } })).toEqual({
      ok: false,
      matcher: "jsonEquals",
      message: "at /value/obj: expected a string of JSON text, found object",
      expected: { a: 1 },
      actual: { a: 1, b: 2 },
    });
  });
});

describe("orderedEquals and setEquals", () => {
  it("orderedEquals wants a list in the same order", () => {
    expect(check({ at: "/value/names", orderedEquals: ["srv_a", "srv_b"] })).toEqual(passed("orderedEquals"));
    expect(check({ at: "/value/names", orderedEquals: ["srv_a", "srv_c"] })).toEqual({
      ok: false,
      matcher: "orderedEquals",
      message: "at /value/names: the list differs (order matters here)",
      expected: ["srv_a", "srv_c"],
      actual: ["srv_a", "srv_b"],
      diff: [{ path: "/value/names/1", change: "changed", expected: "srv_c", actual: "srv_b" }],
    });
    expect(check({ at: "/value/obj", orderedEquals: [] })).toEqual({
      ok: false,
      matcher: "orderedEquals",
      message: "at /value/obj: expected a list, found object",
      actual: { a: 1, b: 2 },
    });
  });

  it("setEquals ignores order, compares elements deeply and counts what is missing and unexpected", () => {
    expect(check({ at: "/value/items", setEquals: [{ size: 2, name: "b" }, items[0]] })).toEqual(passed("setEquals"));
    expect(check({ at: "/value/names", setEquals: ["srv_b", "srv_a", "srv_c"] })).toEqual({
      ok: false,
      matcher: "setEquals",
      message: "at /value/names: the sets differ: 1 missing, 0 unexpected (order ignored)",
      expected: ["srv_b", "srv_a", "srv_c"],
      actual: ["srv_a", "srv_b"],
      diff: [{ path: "/value/names", change: "missing", expected: "srv_c" }],
    });
    expect(check({ at: "/value/names", setEquals: ["srv_b"] })).toMatchObject({
      ok: false,
      message: "at /value/names: the sets differ: 0 missing, 1 unexpected (order ignored)",
      diff: [{ path: "/value/names", change: "unexpected", actual: "srv_a" }],
    });
    expect(check({ at: "/value/nothing", setEquals: [] })).toEqual({
      ok: false,
      matcher: "setEquals",
      message: "at /value/nothing: expected a list, found null",
      actual: null,
    });
  });
});

describe("contains and notContains", () => {
  it("a string contains text; a list an element holding the text, or matching the subset", () => {
    expect(check({ at: "/value/text", contains: "o w" })).toEqual(passed("contains"));
    expect(check({ at: "/value/names", contains: "srv" })).toEqual(passed("contains"));
    expect(check({ at: "/value/mixed", contains: "srv_x" })).toEqual(passed("contains"));
    expect(check({ at: "/value/mixed", contains: 2 })).toEqual(passed("contains"));
    expect(check({ at: "/value/items", contains: { name: "b" } })).toEqual(passed("contains"));
    expect(check({ at: "/value/text", notContains: "bye" })).toEqual(passed("notContains"));
    expect(check({ at: "/value/items", notContains: { name: "c" } })).toEqual(passed("notContains"));
    // A number is looked for as a value, never as text inside a string element.
    expect(check({ at: "/list", notContains: 2 }, { list: ["a2", 3] })).toEqual(passed("notContains"));
  });

  it("fails showing what it looked for", () => {
    expect(check({ at: "/value/items", contains: { name: "c" } })).toEqual({
      ok: false,
      matcher: "contains",
      message: 'at /value/items: expected something matching {"name":"c"}',
      expected: { name: "c" },
      actual: items,
    });
    expect(check({ at: "/value/text", notContains: "world" })).toEqual({
      ok: false,
      matcher: "notContains",
      message: 'at /value/text: expected nothing matching "world"',
      expected: "world",
      actual: "hello world",
    });
  });

  it("says what is wrong when the value is neither a list nor a string, or the string is asked for a non-text", () => {
    expect(check({ at: "/value/n", contains: "5" })).toEqual({
      ok: false,
      matcher: "contains",
      message: "at /value/n: expected a list or a string, found number",
      actual: 5,
    });
    expect(check({ at: "/value/n", notContains: "5" })).toMatchObject({ ok: false, matcher: "notContains" });
    expect(check({ at: "/value/text", contains: { a: 1 } })).toEqual({
      ok: false,
      matcher: "contains",
      message: 'at /value/text: a string holds only text, and {"a":1} is not text',
      expected: { a: 1 },
      actual: "hello world",
    });
    expect(check({ at: "/value/text", notContains: 5 })).toMatchObject({
      ok: false,
      matcher: "notContains",
      message: "at /value/text: a string holds only text, and 5 is not text",
    });
  });
});

describe("length, bounds, matches and type", () => {
  it("length counts a list's elements, a string's characters and an object's keys", () => {
    expect(check({ at: "/value/names", length: 2 })).toEqual(passed("length"));
    expect(check({ at: "/value/text", length: 11 })).toEqual(passed("length"));
    expect(check({ at: "/value/obj", length: 2 })).toEqual(passed("length"));
    expect(check({ at: "/value/names", length: 3 })).toEqual({
      ok: false,
      matcher: "length",
      message: "at /value/names: expected length 3, found 2",
      expected: 3,
      actual: ["srv_a", "srv_b"],
    });
  });

  it("length names the type of a value that has none", () => {
    for (const [at, type] of [
      ["/value/n", "number"],
      ["/value/flag", "boolean"],
      ["/value/nothing", "null"],
    ]) {
      expect(check({ at, length: 0 })).toMatchObject({ ok: false, message: `at ${at}: expected length 0, found ${type}`, expected: 0 });
    }
  });

  it("atMost and atLeast include the bound and say which way it was crossed", () => {
    expect(check({ at: "/value/n", atMost: 5 })).toEqual(passed("atMost"));
    expect(check({ at: "/value/n", atLeast: 5 })).toEqual(passed("atLeast"));
    expect(check({ at: "/value/n", atMost: 4 })).toEqual({
      ok: false,
      matcher: "atMost",
      message: "at /value/n: expected at most 4, found 5",
      expected: 4,
      actual: 5,
    });
    expect(check({ at: "/value/n", atLeast: 6 })).toEqual({
      ok: false,
      matcher: "atLeast",
      message: "at /value/n: expected at least 6, found 5",
      expected: 6,
      actual: 5,
    });
    expect(check({ at: "/value/text", atMost: 100 })).toEqual({
      ok: false,
      matcher: "atMost",
      message: "at /value/text: expected a number, found string",
      actual: "hello world",
    });
  });

  it("matches tests a string against the regular expression", () => {
    expect(check({ at: "/value/text", matches: "o w" })).toEqual(passed("matches"));
    expect(check({ at: "/value/text", matches: "^bye" })).toEqual({
      ok: false,
      matcher: "matches",
      message: 'at /value/text: "hello world" does not match /^bye/',
      expected: "^bye",
      actual: "hello world",
    });
    expect(check({ at: "/value/n", matches: "5" })).toEqual({
      ok: false,
      matcher: "matches",
      message: "at /value/n: expected a string, found number",
      actual: 5,
    });
  });

  it("type names JSON's types, a list as array and null as null", () => {
    expect(check({ at: "/value/names", type: "array" })).toEqual(passed("type"));
    expect(check({ at: "/value/nothing", type: "null" })).toEqual(passed("type"));
    expect(check({ at: "/value/n", type: "string" })).toEqual({
      ok: false,
      matcher: "type",
      message: "at /value/n: expected a string, found number",
      expected: "string",
      actual: 5,
    });
  });
});
