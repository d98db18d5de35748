// Runs a list of expanded scenarios against one subject, in order, judging each against the
// subject's baseline as it finishes.
import type { Entry } from "../schema/baseline.types.ts";
import type { Result } from "../schema/report.types.ts";
import type { ExpandedScenario } from "../scenario/expand.ts";
import type { Subject } from "../subjects/subject.ts";
import { judge } from "../report/baseline.ts";
import { capResult } from "../report/value-cap.ts";
import { runScenario, type RunOptions } from "./run.ts";

export interface SuiteOptions extends RunOptions {
  baseline?: Map<string, Entry>;
  onResult?: (result: Result) => void;
}

export async function runSuite(scenarios: ExpandedScenario[], subject: Subject, options: SuiteOptions = {}): Promise<Result[]> {
  const results: Result[] = [];
  for (const scenario of scenarios) {
    // Capped as the report will store it: one huge value must not weigh on memory or the reports.
    const result = judge(capResult(await runScenario(scenario, subject, options)), options.baseline ?? new Map());
    results.push(result);
    options.onResult?.(result);
  }
  return results;
}

/** Scenario selection shared by run and list: a glob on the expanded id, and tags. */
export function selectScenarios(scenarios: ExpandedScenario[], filter: ((id: string) => boolean) | undefined, tags: string[]): ExpandedScenario[] {
  return scenarios.filter((scenario) => (!filter || filter(scenario.id) || filter(scenario.baseId)) && tags.every((tag) => scenario.tags.includes(tag)));
}

/** Shard i of n (1-based): every n-th scenario, so shards get a similar mix of slow and fast ones. */
export function shard<T>(items: T[], index: number, count: number): T[] {
  return items.filter((_, position) => position % count === index - 1);
}
