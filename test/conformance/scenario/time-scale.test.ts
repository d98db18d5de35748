// The time scale stretches every time value of a scenario together, and nothing else.
import { describe, expect, it } from "vitest";
import { checkTimeScale, scaleScenarioTimes, type TimeKeys } from "../../../conformance/scenario/time-scale.ts";
import { expandYaml } from "../helpers.ts";

const keys: TimeKeys = { milliseconds: ["timeout"], seconds: ["retryAfter"] };

const scenario = `
id: t.times
title: t
spec: [client.timeout]
timeoutMs: 4000
fixtures:
  llm: {kind: llm-mock}
  srv: {kind: mcp-abc, options: {initDelayMs: 900, server: {timeout: 1500}, names: {a: x}, pageSize: 2}}
steps:
  - fixture: llm
    action: script
    with:
      - {status: 503, retryAfter: 4}
      - {status: 503, retryAfter: "3"}
      - {status: 503, retryAfter: 2.5}
      - {status: 503, retryAfter: "-1"}
      - {status: 429, retryAfter: soon}
      - {text: ok, delayMs: 200}
  - op: client.run
    timeoutMs: 9000
    with: {client: c, prompt: hi, timeoutMs: 1500, retryBaseMs: 1, retries: 3, maxTokens: 200}
    expect:
      - {at: /elapsedMs, atLeast: 1400}
      - {at: /elapsedMs, atMost: 3000, because: within 3000 ms}
      - {at: /value/text, equals: ok}
      - {at: /value/metricEvents/0/ms, atLeast: 0}
      - {at: /value/options, equals: {timeoutMs: 1500, retries: 3}}
      - {at: /value/timeouts, length: 2}
      - {fixture: srv, at: /processes/started, length: 1, eventuallyMs: 500, holdsForMs: 300}
      - {at: /value/timeoutMs, equals: -1}
`;

describe("the time scale", () => {
  const [original] = expandYaml(scenario);
  const scaled = scaleScenarioTimes(original, 3, keys);
  const steps = scaled.steps;
  const assertions = steps[1].expect.map((expected) => expected.assertion);

  it("stretches the scenario's and each step's timeout, and every delay and timeout its fixtures and operations are given", () => {
    expect(scaled.timeoutMs).toBe(12_000);
    expect(scaled.fixtures.srv.options).toEqual({ initDelayMs: 2700, server: { timeout: 4500 }, names: { a: "x" }, pageSize: 2 });
    expect(steps[1].step).toMatchObject({
      timeoutMs: 27_000,
      with: { client: "c", prompt: "hi", timeoutMs: 4500, retryBaseMs: 3, retries: 3, maxTokens: 200 },
    });
  });

  it("stretches whole seconds, as a number or as digits, and leaves what is sent to be refused as written", () => {
    expect((steps[0].step as { with: unknown[] }).with).toEqual([
      { status: 503, retryAfter: 12 },
      { status: 503, retryAfter: "9" },
      { status: 503, retryAfter: 2.5 },
      { status: 503, retryAfter: "-1" },
      { status: 429, retryAfter: "soon" },
      { text: "ok", delayMs: 600 },
    ]);
  });

  it("stretches the bounds an assertion checks on a time, and how long it waits, and no other operand", () => {
    expect(assertions).toEqual([
      { at: "/elapsedMs", atLeast: 4200 },
      { at: "/elapsedMs", atMost: 9000, because: "within 3000 ms" },
      { at: "/value/text", equals: "ok" },
      { at: "/value/metricEvents/0/ms", atLeast: 0 },
      { at: "/value/options", equals: { timeoutMs: 4500, retries: 3 } },
      { at: "/value/timeouts", length: 2 },
      { fixture: "srv", at: "/processes/started", length: 1, eventuallyMs: 1500, holdsForMs: 900 },
      { at: "/value/timeoutMs", equals: -1 },
    ]);
  });

  it("leaves the scenario as it is at scale 1, and the expanded original untouched at any scale", () => {
    expect(scaleScenarioTimes(original, 1, keys)).toBe(original);
    expect(original.timeoutMs).toBe(4000);
    expect(original.steps[1].expect[0].assertion).toEqual({ at: "/elapsedMs", atLeast: 1400 });
  });

  it("takes a whole number from 1 to 10, and says what it must be otherwise", () => {
    for (const good of [1, 2, 10]) expect(checkTimeScale(good)).toBeUndefined();
    for (const bad of [0, 1.5, 11, Number.NaN, -2])
      expect(checkTimeScale(bad)).toBe("expected a whole number from 1 to 10 (every time value of a scenario is multiplied by it)");
  });
});
