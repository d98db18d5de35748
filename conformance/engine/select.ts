// Which expanded scenarios a run takes: a glob on the id, tags, and a shard.
import type { ExpandedScenario } from "../scenario/expand.ts";

/** Scenario selection shared by run and list: a glob on the expanded id, and tags. */
export function selectScenarios(scenarios: ExpandedScenario[], filter: ((id: string) => boolean) | undefined, tags: string[]): ExpandedScenario[] {
  return scenarios.filter((scenario) => (!filter || filter(scenario.id) || filter(scenario.baseId)) && tags.every((tag) => scenario.tags.includes(tag)));
}

/** Shard i of n (1-based): every n-th scenario, so shards get a similar mix of slow and fast ones. */
export function shard<T>(items: T[], index: number, count: number): T[] {
  return items.filter((_, position) => position % count === index - 1);
}

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
