// Whether a step runs: every step does until one fails; after that, only a step marked `independent`
// whose dependencies (scenario/step-dependencies.ts) all ran and passed. A later step usually builds on
// the earlier ones, so running it would only add noise; one marked independent shows a difference an
// earlier failure would otherwise hide. Each step that does not run is reported, with why.
import type { NotRunStep } from "../schema/report.types.ts";
import type { ExpandedScenario, ExpandedStep } from "../scenario/expand.ts";
import { stepDependencies } from "../scenario/step-dependencies.ts";
import { nameStep, stepCheck } from "./failure.ts";
import { substitute } from "./variables.ts";

export interface StepGate {
  /** Why the step is not to run (recorded as not run), or undefined: run it, then `record` how it went. */
  skip(step: ExpandedStep): NotRunStep | undefined;
  record(step: ExpandedStep, passed: boolean): void;
}

export function stepGate(scenario: ExpandedScenario): StepGate {
  const dependencies = stepDependencies(scenario.steps, scenario.pathVars);
  // A step not run has no outcome: it is neither "passed" nor "failed", which is all a later step asks.
  const outcomes = new Map<number, "passed" | "failed">();
  let firstFailed: number | undefined;
  const label = (index: number) => {
    const step = scenario.steps.find((candidate) => candidate.index === index)!;
    return stepCheck(nameStep(step, opOf(step, scenario.pathVars)));
  };
  return {
    skip(step) {
      if (firstFailed === undefined) return undefined;
      const unmet = dependencies.get(step.index)!.filter((dependency) => outcomes.get(dependency.step) !== "passed");
      const reason = !step.step.independent
        ? `${label(firstFailed)} failed, and this step is not marked independent`
        : unmet.length
          ? `it depends on ${unmet.map((dependency) => `${label(dependency.step)} (${dependency.why}), which ${outcomes.get(dependency.step) === "failed" ? "failed" : "did not run"}`).join("; ")}`
          : undefined;
      if (reason === undefined) return undefined;
      return { step: step.index, line: step.line, name: label(step.index), reason };
    },
    record(step, stepPassed) {
      outcomes.set(step.index, stepPassed ? "passed" : "failed");
      if (!stepPassed) firstFailed ??= step.index;
    },
  };
}

/** The step's op for its name: a path variable resolved, else as written (a step not run substitutes nothing else). */
function opOf(step: ExpandedStep, pathVars: Record<string, string>): string | undefined {
  if (!("op" in step.step)) return undefined;
  try {
    return String(substitute(step.step.op, new Map(Object.entries(pathVars))));
  } catch {
    return step.step.op;
  }
}
