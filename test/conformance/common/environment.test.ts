// applyEnvironment sets the variables a suite's subjects need and removes the ones they must not see,
// on the environment it is given (the harness's own by default).
import { describe, expect, it } from "vitest";
import { applyEnvironment } from "../../../conformance/common/environment.ts";

describe("applyEnvironment", () => {
  it("sets a string, removes a null, and leaves every other variable as it was", () => {
    const target: NodeJS.ProcessEnv = { KEEP: "k", GONE: "g", CHANGED: "old" };
    applyEnvironment({ CHANGED: "new", ADDED: "a", GONE: null, NEVER_THERE: null }, target);
    expect(target).toEqual({ KEEP: "k", CHANGED: "new", ADDED: "a" });
    expect("GONE" in target).toBe(false);
  });
});
