import { describe, expect, it } from "vitest";
import { evaluate } from "../../../conformance/engine/assert.ts";

const doc = {
  value: {
    body: { temperature: 0.42, nested: { a: 1, b: [1, 2] }, empty: [], nothing: null },
    names: ["srv_a", "srv_b"],
    text: "hello world",
  },
};

describe("assertion matchers", () => {
  it("equals ignores key order and reports each difference by JSON Pointer", () => {
    expect(evaluate({ at: "/value/body/nested", equals: { b: [1, 2], a: 1 } }, doc).ok).toBe(true);
    const outcome = evaluate({ at: "/value/body/nested", equals: { a: 2, b: [1, 2], c: 3 } }, doc);
    expect(outcome.ok).toBe(false);
    expect(outcome.diff).toEqual([
      { path: "/value/body/nested/a", change: "changed", expected: 2, actual: 1 },
      { path: "/value/body/nested/c", change: "missing", expected: 3 },
    ]);
  });

  it("subset allows extra keys but not missing or different ones", () => {
    expect(evaluate({ at: "/value/body", subset: { temperature: 0.42, nested: { a: 1 } } }, doc).ok).toBe(true);
    const outcome = evaluate({ at: "/value/body", subset: { temperature: 0.5, top_p: 1 } }, doc);
    expect(outcome.diff?.map((d) => `${d.change} ${d.path}`)).toEqual(["changed /value/body/temperature", "missing /value/body/top_p"]);
  });

  it("absent means no key: null and empty values are present", () => {
    expect(evaluate({ at: "/value/body/tools", absent: true }, doc).ok).toBe(true);
    expect(evaluate({ at: "/value/body/empty", absent: true }, doc).ok).toBe(false);
    expect(evaluate({ at: "/value/body/nothing", absent: true }, doc).ok).toBe(false);
    expect(evaluate({ at: "/value/body/nothing", present: true }, doc).ok).toBe(true);
  });

  it("setEquals ignores order, orderedEquals does not", () => {
    expect(evaluate({ at: "/value/names", setEquals: ["srv_b", "srv_a"] }, doc).ok).toBe(true);
    expect(evaluate({ at: "/value/names", orderedEquals: ["srv_b", "srv_a"] }, doc).ok).toBe(false);
    const outcome = evaluate({ at: "/value/names", setEquals: ["srv_a", "srv_c"] }, doc);
    expect(outcome.diff).toEqual([
      { path: "/value/names", change: "missing", expected: "srv_c" },
      { path: "/value/names", change: "unexpected", actual: "srv_b" },
    ]);
  });

  it("contains, length, bounds, matches and type", () => {
    expect(evaluate({ at: "/value/names", contains: "srv_b" }, doc).ok).toBe(true);
    expect(evaluate({ at: "/value/text", notContains: "bye" }, doc).ok).toBe(true);
    expect(evaluate({ at: "/value/text", contains: "bye" }, doc).ok).toBe(false);
    expect(evaluate({ at: "/value/names", length: 2 }, doc).ok).toBe(true);
    expect(evaluate({ at: "/value/body/temperature", atMost: 0.4 }, doc).message).toContain("expected at most 0.4, found 0.42");
    expect(evaluate({ at: "/value/body/temperature", atLeast: 0.4 }, doc).ok).toBe(true);
    expect(evaluate({ at: "/value/text", matches: "^hello" }, doc).ok).toBe(true);
    expect(evaluate({ at: "/value/body/empty", type: "array" }, doc).ok).toBe(true);
  });

  it("jsonEquals compares JSON text by its parsed value, whatever the key order or spacing", () => {
    const text = { value: { sorted: '{"doubled":10,"n":5}', spaced: '{ "n" : 5, "doubled" : 10 }', broken: '{"n":' } };
    expect(evaluate({ at: "/value/sorted", jsonEquals: { n: 5, doubled: 10 } }, text).ok).toBe(true);
    expect(evaluate({ at: "/value/spaced", jsonEquals: { n: 5, doubled: 10 } }, text).ok).toBe(true);
    const different = evaluate({ at: "/value/sorted", jsonEquals: { n: 5, doubled: 11 } }, text);
    expect(different).toMatchObject({ ok: false, diff: [{ path: "/value/sorted/doubled", expected: 11, actual: 10 }] });
    expect(evaluate({ at: "/value/broken", jsonEquals: { n: 5 } }, text).message).toContain("is not JSON text");
    expect(evaluate({ at: "/value/body", jsonEquals: {} }, doc).message).toContain("expected a string of JSON text, found object");
  });

  it("a missing key fails every value matcher with a clear message", () => {
    const outcome = evaluate({ at: "/value/body/top_p", equals: 1 }, doc);
    expect(outcome).toMatchObject({ ok: false, matcher: "equals" });
    expect(outcome.message).toContain("the key does not exist");
  });
});
