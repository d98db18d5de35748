// `${name}` substitution in step inputs (engine/variables.ts): a string that is exactly one reference
// becomes the raw value, a reference inside text is interpolated (strings as they are, other values
// as JSON), lists and objects are walked, other values pass through, and an unknown name is an error
// that lists the names there are.
import { describe, expect, it } from "vitest";
import { substitute, UnknownVariableError } from "../../../conformance/engine/variables.ts";

const vars = new Map<string, unknown>([
  ["srv.url", "http://127.0.0.1:1/test"],
  ["ids", [1, 2]],
  ["reply", { text: "hi" }],
  ["count", 3],
]);

function substituteError(value: unknown, known: ReadonlyMap<string, unknown>): Error {
  let error: unknown;
  try {
    substitute(value, known);
  } catch (caught) {
    error = caught;
  }
  expect(error).toBeInstanceOf(UnknownVariableError);
  return error as Error;
}

describe("substitute", () => {
  it("a whole reference becomes the raw value: a list stays a list, an object an object", () => {
    expect(substitute("${ids}", vars)).toStrictEqual([1, 2]);
    expect(substitute("${reply}", vars)).toStrictEqual({ text: "hi" });
    expect(substitute("${count}", vars)).toBe(3);
  });

  it("a reference inside text is interpolated: a string as it is, any other value as JSON", () => {
    expect(substitute("at ${srv.url}/x", vars)).toBe("at http://127.0.0.1:1/test/x");
    expect(substitute("ids ${ids}, reply ${reply}, count ${count}", vars)).toBe('ids [1,2], reply {"text":"hi"}, count 3');
  });

  it("walks lists and objects, keeping their shape", () => {
    expect(substitute({ url: "${srv.url}", list: ["${count}", "plain", { deep: "${ids}" }] }, vars)).toStrictEqual({
      url: "http://127.0.0.1:1/test",
      list: [3, "plain", { deep: [1, 2] }],
    });
  });

  it("passes other values through as they are", () => {
    for (const value of [5, 0, true, false, null, undefined, "no reference"]) expect(substitute(value, vars)).toBe(value);
  });

  it("an unknown name is an error naming it and the names there are, whole or inside text", () => {
    const known = new Map([
      ["a", 1],
      ["b", 2],
    ]);
    expect(substituteError("${nope}", known).message).toBe("unknown variable ${nope}; known: a, b");
    expect(substituteError({ list: ["x ${nope} y"] }, known).message).toBe("unknown variable ${nope}; known: a, b");
    expect(substituteError("${nope}", new Map()).message).toBe("unknown variable ${nope}; known: none");
  });
});
