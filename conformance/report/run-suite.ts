// Runs a list of expanded scenarios against one subject, in order, judging each against the
// subject's baseline as it finishes (here, above the engine: judging is the report's business).
import type { Entry } from "../schema/baseline.types.ts";
import type { Result } from "../schema/report.types.ts";
import type { ExpandedScenario } from "../scenario/expand.ts";
import type { Subject } from "../subjects/subject.ts";
import { runScenario, type RunOptions } from "../engine/run.ts";
import { judge } from "./baseline.ts";
import { capResult } from "./value-cap.ts";

export interface SuiteOptions extends RunOptions {
  baseline?: Map<string, Entry>;
  onResult?: (result: Result) => void;
}

export async function runSuite(scenarios: ExpandedScenario[], subject: Subject, options: SuiteOptions): Promise<Result[]> {
  const results: Result[] = [];
  for (const scenario of scenarios) {
    // Capped as the report will store it: one huge value must not weigh on memory or the reports.
    const result = judge(capResult(await runScenario(scenario, subject, options)), options.baseline ?? new Map());
    results.push(result);
    options.onResult?.(result);
  }
  return results;
}
