// The comparisons under the matchers: what a pointer resolves to, when two JSON values are equal, and
// the differences (by JSON Pointer) a failure lists for a port maintainer.
import { describe, expect, it } from "vitest";
import { deepEqual, differences, resolvePointer, subsetDifferences } from "../../../conformance/scenario/json-compare.ts";

describe("resolvePointer", () => {
  const doc = { text: "abc", n: 5, nothing: null, list: [10, { a: 1 }], "a/b": { "~": true } };

  it("finds keys and list elements, and the whole document at the empty pointer", () => {
    expect(resolvePointer(doc, "/list/1/a")).toEqual({ exists: true, value: 1 });
    expect(resolvePointer(doc, "/nothing")).toEqual({ exists: true, value: null });
    expect(resolvePointer(doc, "/a~1b/~0")).toEqual({ exists: true, value: true });
    expect(resolvePointer(doc, "")).toEqual({ exists: true, value: doc });
  });

  it("finds nothing below a string, a number or null, nor an inherited key", () => {
    for (const pointer of ["/text/0", "/text/length", "/n/0", "/nothing/a", "/list/2", "/list/-", "/toString"]) {
      expect(resolvePointer(doc, pointer), pointer).toStrictEqual({ exists: false, value: undefined });
    }
  });

  it("finds no length of a list: JSON Pointer names a list's elements only", () => {
    expect(resolvePointer(doc, "/list/length")).toStrictEqual({ exists: false, value: undefined });
    expect(resolvePointer({ length: 2 }, "/length")).toEqual({ exists: true, value: 2 });
  });

  it("reads a segment with a leading zero as a key: /m/01 is not /m/1, and no list index", () => {
    expect(resolvePointer({ m: { "1": "one", "01": "zero-one" } }, "/m/01")).toEqual({ exists: true, value: "zero-one" });
    expect(resolvePointer({ m: { "1": "one" } }, "/m/01")).toStrictEqual({ exists: false, value: undefined });
    expect(resolvePointer({ list: ["a", "b"] }, "/list/01")).toStrictEqual({ exists: false, value: undefined });
  });
});

describe("deepEqual", () => {
  it("holds for the same JSON, whatever the key order", () => {
    expect(deepEqual({ a: 1, b: [1, { c: 2 }] }, { b: [1, { c: 2 }], a: 1 })).toBe(true);
    expect(deepEqual([1, [2]], [1, [2]])).toBe(true);
    expect(deepEqual(null, null)).toBe(true);
  });

  it("tells a list from an object, and an object from null or a primitive", () => {
    const pairs: [unknown, unknown][] = [
      [{}, []],
      [[], {}],
      [[1], { 0: 1, length: 1 }],
      [{}, 5],
      [5, {}],
      [null, {}],
      [{}, null],
      [1, "1"],
    ];
    for (const [a, b] of pairs) expect(deepEqual(a, b), `${JSON.stringify(a)} vs ${JSON.stringify(b)}`).toBe(false);
  });

  it("tells lists apart by length and by each element", () => {
    for (const [a, b] of [
      [[1], [2]],
      [[1], [1, 2]],
      [[1, 2], [1]],
      [
        [1, 2],
        [1, 3],
      ],
    ]) {
      expect(deepEqual(a, b), `${JSON.stringify(a)} vs ${JSON.stringify(b)}`).toBe(false);
    }
  });

  it("tells objects apart by their keys and by each value", () => {
    for (const [a, b] of [
      [{ a: 1 }, { a: 2 }],
      [{ a: 1 }, { b: 1 }],
      [{ a: 1 }, { a: 1, b: 2 }],
      [{ a: 1, b: 2 }, { a: 1 }],
      [
        { a: 1, b: 2 },
        { a: 1, b: 3 },
      ],
    ]) {
      expect(deepEqual(a, b), `${JSON.stringify(a)} vs ${JSON.stringify(b)}`).toBe(false);
    }
  });
});

describe("differences (equals)", () => {
  it("reports a changed primitive at the pointer it sits at, '/' for the whole document", () => {
    expect(differences(5, 5, "")).toEqual([]);
    expect(differences(5, 4, "")).toEqual([{ path: "/", change: "changed", expected: 5, actual: 4 }]);
    expect(differences(5, 4, "/n")).toEqual([{ path: "/n", change: "changed", expected: 5, actual: 4 }]);
  });

  it("reports a whole value changed when one side is null, a primitive, or a list against an object", () => {
    const cases: [unknown, unknown][] = [
      [null, { a: 1 }],
      [{ a: 1 }, null],
      [1, { a: 1 }],
      [{ a: 1 }, "x"],
      [[], {}],
      [{}, []],
    ];
    for (const [expected, actual] of cases) {
      expect(differences(expected, actual, "/v"), JSON.stringify([expected, actual])).toEqual([
        { path: "/v", change: "changed", expected, actual },
      ]);
    }
  });

  it("names each missing, unexpected and changed key by its escaped pointer", () => {
    expect(differences({ a: 1, "a/b": 1, l: [1, 2] }, { a: 1, "a/b": 2, l: [1], extra: true }, "/v")).toEqual([
      { path: "/v/a~1b", change: "changed", expected: 1, actual: 2 },
      { path: "/v/l/1", change: "missing", expected: 2 },
      { path: "/v/extra", change: "unexpected", actual: true },
    ]);
  });
});

describe("subsetDifferences (subset)", () => {
  it("lets objects hold extra keys, but not a list extra elements", () => {
    expect(subsetDifferences({ a: { b: 1 }, l: [1, { c: 1 }] }, { a: { b: 1, x: 0 }, l: [1, { c: 1, y: 0 }], z: 0 }, "")).toEqual([]);
    expect(subsetDifferences(null, null, "/n")).toEqual([]);
    expect(subsetDifferences({ n: null }, { n: null }, "")).toEqual([]);
  });

  it("reports a changed element of a list by its index", () => {
    expect(subsetDifferences([1, 2], [1, 3], "/l")).toEqual([{ path: "/l/1", change: "changed", expected: 2, actual: 3 }]);
  });

  it("reports each element a list lacks as missing, and each one too many as unexpected", () => {
    expect(subsetDifferences([1, 2, 3], [1], "/l")).toEqual([
      { path: "/l/1", change: "missing", expected: 2 },
      { path: "/l/2", change: "missing", expected: 3 },
    ]);
    expect(subsetDifferences([1], [1, 2, 3], "/l")).toEqual([
      { path: "/l/1", change: "unexpected", actual: 2 },
      { path: "/l/2", change: "unexpected", actual: 3 },
    ]);
  });

  it("reports a missing key, and the whole value when the kinds differ ('/' for the whole document)", () => {
    expect(subsetDifferences({ a: 1, b: 2 }, { a: 1 }, "/o")).toEqual([{ path: "/o/b", change: "missing", expected: 2 }]);
    const cases: [unknown, unknown][] = [
      [[1], { 0: 1 }],
      [[1], null],
      [{ a: 1 }, [1]],
      [{ a: 1 }, null],
      [{ a: 1 }, 5],
      [5, 4],
      [null, { a: 1 }],
    ];
    for (const [expected, actual] of cases) {
      const what = JSON.stringify([expected, actual]);
      expect(subsetDifferences(expected, actual, ""), what).toEqual([{ path: "/", change: "changed", expected, actual }]);
      expect(subsetDifferences(expected, actual, "/o"), what).toEqual([{ path: "/o", change: "changed", expected, actual }]);
    }
  });
});
