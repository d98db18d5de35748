// The one JSON Pointer escaping every layer uses: a key holding "/" or "~" survives the round trip.
import { describe, expect, it } from "vitest";
import { escapePointerToken, isRecord, pathToPointer, pointerToPath, unescapePointerToken } from "../../../conformance/common/json.ts";

describe("common/json", () => {
  it("escapes ~ before / (RFC 6901): the key ~1 is not read back as /", () => {
    expect(escapePointerToken("a/b~c")).toBe("a~1b~0c");
    expect(escapePointerToken("~1")).toBe("~01");
    expect(unescapePointerToken("~01")).toBe("~1");
  });

  it("turns a path into a pointer and back, indexes as numbers", () => {
    const path = ["requests", 0, "body", "a/b", "~x"];
    expect(pathToPointer(path)).toBe("/requests/0/body/a~1b/~0x");
    expect(pathToPointer([1], "/list")).toBe("/list/1");
    expect(pointerToPath(pathToPointer(path))).toEqual(path);
    expect(pointerToPath("")).toEqual([]);
  });

  it('an index has no leading zero (RFC 6901): /m/01 names the key "01", not 1', () => {
    expect(pointerToPath("/m/01/0/10")).toEqual(["m", "01", 0, 10]);
  });

  it("a record is an object that is neither null nor a list", () => {
    expect([{}, { a: 1 }, [], null, "x", 1].map(isRecord)).toEqual([true, true, false, false, false, false]);
  });
});
