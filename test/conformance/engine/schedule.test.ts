// How a run schedules a scenario (engine/schedule.ts): the `exclusive` tag makes it run alone, and its
// weight is the sum of the timeouts its steps set themselves (a step on the default counts nothing).
import { describe, expect, it } from "vitest";
import { exclusiveTag, runsAlone, waitWeight } from "../../../conformance/engine/schedule.ts";
import type { ExpandedScenario } from "../../../conformance/scenario/expand.ts";

/** Only what the schedule reads of a scenario: its tags and its steps' bodies. */
const scenario = (tags: string[], steps: Record<string, unknown>[] = []) =>
  ({ tags, steps: steps.map((step) => ({ step })) }) as unknown as ExpandedScenario;

describe("runsAlone", () => {
  it("is true for a scenario tagged exclusive, whatever its other tags, and false otherwise", () => {
    expect(exclusiveTag).toBe("exclusive");
    expect(runsAlone(scenario(["slow", "exclusive"]))).toBe(true);
    expect(runsAlone(scenario(["slow"]))).toBe(false);
    expect(runsAlone(scenario([]))).toBe(false);
  });
});

describe("waitWeight", () => {
  it("sums the timeouts the steps set, counting nothing for a step on the default or a fixture step", () => {
    const steps = [
      { op: "client.run", timeoutMs: 300 },
      { op: "client.run" },
      { fixture: "srv", action: "poke" },
      { op: "client.stream", timeoutMs: 1_200 },
    ];
    expect(waitWeight(scenario([], steps))).toBe(1_500);
  });

  it("is 0 for a scenario whose steps set no timeout, or that has no steps", () => {
    expect(waitWeight(scenario([], [{ op: "client.run" }, { fixture: "srv", action: "poke" }]))).toBe(0);
    expect(waitWeight(scenario([]))).toBe(0);
  });
});
