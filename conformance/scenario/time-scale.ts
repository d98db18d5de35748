// A time scale stretches every time value of a scenario together: the delays its fixtures wait, the
// timeouts its subject and its steps are given, and the bounds its assertions check on a time. At
// scale N a scenario is the same scenario in slow motion, N times slower; what it checks does not
// change, since every value it compares moves with the others (a delay that must outlast a timeout
// still does). It is the tool the web-platform tests use for a slow machine, instead of a slack per
// scenario. Which keys hold a time is the scenario format's rule (a key ending in `Ms`, or `ms`,
// holds milliseconds) plus what the suite names (its TimeKeys).
import type { Assertion } from "../schema/scenario.types.ts";
import type { ExpandedAssertion, ExpandedScenario } from "./expand.ts";
import { unescapePointerToken } from "../common/json.ts";
import { matcherOf } from "./matchers.ts";

/** The keys a suite's scenarios hold times under besides the format's own rule. */
export interface TimeKeys {
  /** Keys whose number is milliseconds (e.g. an MCP server entry's `timeout`). */
  milliseconds: readonly string[];
  /** Keys whose value is whole seconds, a number or its digits as text (e.g. an HTTP `retry-after` header). */
  seconds: readonly string[];
}

/** The largest scale a run may ask for: beyond it a scenario's waits outgrow the harness's own bounds. */
export const maxTimeScale = 10;

/** What `--time-scale` must be: a whole number, so a time written in whole seconds stays whole. */
export function checkTimeScale(scale: number): string | undefined {
  if (!Number.isInteger(scale) || scale < 1 || scale > maxTimeScale)
    return `expected a whole number from 1 to ${maxTimeScale} (every time value of a scenario is multiplied by it)`;
  return undefined;
}

const isMilliseconds = (key: string, keys: TimeKeys) => key === "ms" || key.endsWith("Ms") || keys.milliseconds.includes(key);

/** The value under `key`, stretched when the key holds a time; anything else is walked into, unchanged itself. */
function stretchUnder(key: string, value: unknown, scale: number, keys: TimeKeys): unknown {
  // A negative time is a value the scenario sends to be refused, as written (its error may quote it).
  if (typeof value === "number" && value >= 0 && isMilliseconds(key, keys)) return value * scale;
  if (keys.seconds.includes(key)) {
    // Only whole seconds: a word, a negative or a fraction is sent to be refused too.
    if (typeof value === "number" && Number.isInteger(value) && value >= 0) return value * scale;
    if (typeof value === "string" && /^\d+$/.test(value)) return String(Number(value) * scale);
  }
  return stretch(value, scale, keys);
}

function stretch(value: unknown, scale: number, keys: TimeKeys): unknown {
  if (Array.isArray(value)) return value.map((item) => stretch(item, scale, keys));
  if (value === null || typeof value !== "object") return value;
  return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, stretchUnder(key, item, scale, keys)]));
}

/**
 * An assertion's own time keys stretched (`eventuallyMs`), and its matcher's operand as the value at
 * `at` is: a time when `at` ends at a time key (`/elapsedMs`, `atMost: 3000`).
 */
function stretchAssertion(assertion: Assertion, scale: number, keys: TimeKeys): Assertion {
  const matcher = matcherOf(assertion);
  const at = unescapePointerToken(assertion.at.slice(assertion.at.lastIndexOf("/") + 1));
  const stretched = Object.entries(assertion).map(([key, value]) => [key, stretchUnder(key === matcher ? at : key, value, scale, keys)]);
  return Object.fromEntries(stretched) as Assertion;
}

/** The scenario with every time value multiplied by `scale` (the scenario itself at 1, or when its times are fixed). */
export function scaleScenarioTimes(scenario: ExpandedScenario, scale: number, keys: TimeKeys): ExpandedScenario {
  if (scale === 1 || scenario.fixedTimes) return scenario;
  const stretchOne = (expected: ExpandedAssertion): ExpandedAssertion => ({
    ...expected,
    assertion: stretchAssertion(expected.assertion, scale, keys),
  });
  return {
    ...scenario,
    timeoutMs: scenario.timeoutMs * scale,
    fixtures: stretch(scenario.fixtures, scale, keys) as ExpandedScenario["fixtures"],
    steps: scenario.steps.map((step) => ({
      ...step,
      step: stretch(step.step, scale, keys) as typeof step.step,
      expect: step.expect.map(stretchOne),
    })),
  };
}
