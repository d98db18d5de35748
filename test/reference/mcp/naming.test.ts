import { describe, expect, it } from "vitest";
import { exposedName, filterTools, normalizeSchema, sanitize } from "../../../reference/index.ts";

describe("naming (mcp.naming.prefix)", () => {
  it("replaces every character outside [a-zA-Z0-9_-] and joins server and tool with _", () => {
    expect(sanitize("my.srv")).toBe("my_srv");
    expect(sanitize("a-b_C9")).toBe("a-b_C9");
    expect(sanitize("é/ x")).toBe("___x");
    expect(exposedName("my.srv", "get/x")).toBe("my_srv_get_x");
  });
  it("never truncates", () => {
    const long = "t".repeat(200);
    expect(exposedName("s", long)).toHaveLength(202);
  });
});

describe("normalizeSchema (mcp.schema.normalize)", () => {
  it("forces type object, defaults properties, closes additionalProperties, keeps the rest", () => {
    expect(normalizeSchema({ type: "object" })).toEqual({ type: "object", properties: {}, additionalProperties: false });
    expect(normalizeSchema(undefined)).toEqual({ type: "object", properties: {}, additionalProperties: false });
    expect(normalizeSchema({ properties: { n: { type: "number" } }, required: ["n"], additionalProperties: true })).toEqual({
      type: "object",
      properties: { n: { type: "number" } },
      required: ["n"],
      additionalProperties: false,
    });
  });
});

describe("filterTools (SPEC.md 2.5)", () => {
  const listed = [{ name: "a" }, { name: "b" }, { name: "c" }];
  const kept = (map: Record<string, boolean> | undefined) => filterTools(listed, map).kept.map((tool) => tool.name);
  it("absent map keeps all (mcp.allowlist.absent)", () => expect(kept(undefined)).toEqual(["a", "b", "c"]));
  it("an empty map keeps none (pinned decision 1, mcp.allowlist.empty)", () => expect(kept({})).toEqual([]));
  it("any true entry makes an allowlist (mcp.allowlist.allow)", () => {
    expect(kept({ a: true, b: true })).toEqual(["a", "b"]);
    expect(kept({ a: true, c: false })).toEqual(["a"]);
  });
  it("only false entries make a drop-list (mcp.allowlist.drop)", () => expect(kept({ c: false })).toEqual(["a", "b"]));
  it("reports names that matched nothing, and keeps list order (mcp.allowlist.unknown)", () => {
    expect(filterTools(listed, { nope: true, a: true, typo: false })).toEqual({ kept: [{ name: "a" }], unknown: ["nope", "typo"] });
    expect(kept({ c: true, a: true })).toEqual(["a", "c"]);
  });
  it("does not match inherited object keys", () => {
    expect(filterTools([{ name: "toString" }, { name: "constructor" }], { toString: false }).kept.map((tool) => tool.name)).toEqual([
      "constructor",
    ]);
  });
});
