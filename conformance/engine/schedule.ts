// How a run schedules a scenario among others (run-suite.ts, lanes): whether it must run alone, and how
// long its author expects it to wait.
import type { ExpandedScenario } from "../scenario/expand.ts";

/**
 * The tag of a scenario that must run with nothing else in flight under `run --jobs N`: it observes
 * state every lane of a subject shares (the in-process reference's process-wide registry of open
 * toolkits, say). Documented in conformance/README.md and the scenario schema's `tags`.
 */
export const exclusiveTag = "exclusive";

export const runsAlone = (scenario: ExpandedScenario): boolean => scenario.tags.includes(exclusiveTag);

/**
 * How long a scenario's author expects it to wait: the sum of the timeouts its steps set themselves
 * (a step that only takes the scenario's default expects no long wait). Measured on the suite, the
 * scenarios with the largest sums are among the longest, so lanes start them first.
 */
export const waitWeight = (scenario: ExpandedScenario): number =>
  scenario.steps.reduce((sum, { step }) => sum + (("timeoutMs" in step && step.timeoutMs) || 0), 0);
