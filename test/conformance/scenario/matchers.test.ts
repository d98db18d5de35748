// The matchers are defined once (conformance/scenario/matchers.ts); the scenario schema names them too,
// for editors and for the schema's own checks, and must name the same ones in the same order.
import { createRequire } from "node:module";
import { describe, expect, it } from "vitest";
import { matcherNames, matcherOf } from "../../../conformance/scenario/matchers.ts";

const require = createRequire(import.meta.url);
const schema = require("../../../conformance/schema/scenario.schema.json");
/** An assertion's keys that are no matcher: where it looks, when, why, and how long it waits. */
const targetKeys = ["at", "fixture", "var", "when", "because", "eventuallyMs", "holdsForMs", "settled"];

describe("the matcher table", () => {
  it("names the matchers scenario.schema.json's assertion names, in its order", () => {
    const properties = Object.keys(schema.$defs.assertion.properties).filter((key) => !targetKeys.includes(key));
    expect(matcherNames).toEqual(properties);
  });

  it("finds an assertion's matcher among its keys, and none where there is none", () => {
    expect(matcherOf({ at: "/x", because: "b", length: 2 })).toBe("length");
    expect(matcherOf({ at: "/x", fixture: "llm" })).toBeUndefined();
  });
});
