// Which earlier steps a step builds on, as far as the file shows: the step that created each handle
// its input names (operations.schema.json marks the keys: `x-creates-handle`, `x-handle`), and every
// earlier fixture step (a fixture step sets the scene the subject sees: a script, a kill). The engine
// runs a step marked `independent` after a failure only when each of these ran and passed; what a
// step captures is not here, because an independent step reads no captured variable (lint checks).
import { isRecord } from "../common/json.ts";
import { handleKeysOfOperation } from "../../runners/protocol/protocol.ts";
import type { StepBody } from "./expand.ts";
import { wholeReference } from "./variables.ts";

export interface StepDependency {
  /** 0-based index of the earlier step in the file. */
  step: number;
  /** Why the later step needs it, for the report: `it creates toolkit t1`, `a fixture step`. */
  why: string;
}

/**
 * For each step (by its index in the file), the earlier steps it builds on. `pathVars` resolve an op
 * written as a path variable (`${path.op}`); handles are compared as written in the file.
 */
export function stepDependencies(
  steps: readonly { index: number; step: StepBody }[],
  pathVars: Readonly<Record<string, string>>,
): Map<number, StepDependency[]> {
  const creators = new Map<string, number>();
  const fixtureSteps: number[] = [];
  const dependencies = new Map<number, StepDependency[]>();
  for (const { index, step } of steps) {
    const needs: StepDependency[] = fixtureSteps.map((fixtureStep) => ({ step: fixtureStep, why: "a fixture step" }));
    if ("fixture" in step) fixtureSteps.push(index);
    else {
      const op = pathVars[wholeReference.exec(step.op)?.[1] ?? ""] ?? step.op;
      const input = isRecord(step.with) ? step.with : {};
      const named = handleKeysOfOperation(op).flatMap((handle) =>
        typeof input[handle.key] === "string" ? [{ ...handle, name: input[handle.key] as string }] : [],
      );
      for (const { kind, name } of named.filter((handle) => !handle.creates)) {
        const creator = creators.get(`${kind}\u0000${name}`);
        if (creator !== undefined && !needs.some((need) => need.step === creator))
          needs.push({ step: creator, why: `it creates ${kind} ${name}` });
      }
      for (const { kind, name } of named.filter((handle) => handle.creates)) creators.set(`${kind}\u0000${name}`, index);
    }
    dependencies.set(index, needs);
  }
  return dependencies;
}
