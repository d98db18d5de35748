// Operation steps: a known operation (or a matrix variable standing for several), an input that fits
// it (runners/protocol/operations.schema.json), and the capabilities that schema's `x-capability`
// says the operation or an input key needs, which the scenario must require.
import { isRecord, pointerToPath } from "../../common/json.ts";
import { capabilitiesOfOperation, isOperationName } from "../../schema/protocol.ts";
import type { OperationStep, Scenario } from "../../schema/scenario.types.ts";
import type { Diagnostic, ScenarioFile } from "../load.ts";
import { matrixPaths, type SuiteDefinition } from "../suite-definition.ts";
import { operationNames, operationValidator, toDiagnostics } from "../validate.ts";
import { at, type Path } from "./diagnostic.ts";

/** What a step's `op` stands for: itself, or, written as one of the suite's path variables, each operation it takes. */
export interface StepOperations {
  /** The op is a path variable (`${path.op}`): set by the matrix, one operation per path. */
  variable: boolean;
  ops: string[];
}

/**
 * An op written as exactly one `${NAME}`, where every path of every matrix of the suite sets NAME to an
 * operation, is a matrix variable: it stands for the operations it takes over this scenario's paths
 * (over every matrix's when the scenario has none, so a missing matrix is reported once, not hidden).
 */
export function stepOperations(op: string, matrix: Scenario["matrix"], suite: SuiteDefinition): StepOperations {
  const name = /^\$\{([^{}]+)\}$/.exec(op)?.[1];
  const allPaths = Object.values(suite.matrices).flat();
  const isOperationVariable =
    name !== undefined && allPaths.length > 0 && allPaths.every((path) => isOperationName(suite.pathVariables(path)[name] ?? ""));
  if (!isOperationVariable) return { variable: false, ops: [op] };
  const paths = matrixPaths(matrix, suite);
  return {
    variable: true,
    ops: [
      ...new Set((paths.length ? paths : allPaths).map((path) => suite.pathVariables(path)[name]).filter((value) => value !== undefined)),
    ],
  };
}

export function checkOperationStep(
  scenario: ScenarioFile,
  step: OperationStep,
  base: Path,
  variable: boolean,
  isMatrix: boolean,
  suite: SuiteDefinition,
): Diagnostic[] {
  if (variable) {
    const matrices = Object.keys(suite.matrices)
      .map((name) => `\`matrix: ${name}\``)
      .join(" or ");
    return isMatrix
      ? []
      : [at(scenario, [...base, "op"], `${step.op} is only defined in a scenario with a matrix`, `add ${matrices} or name the operation`)];
  }
  const validate = operationValidator(step.op);
  if (!validate) return [at(scenario, [...base, "op"], `unknown operation "${step.op}"`, `expected one of: ${operationNames.join(", ")}`)];
  if (validate(step.with ?? {})) return [];
  // A `${...}` string stands for a value of any type: only the run can check it.
  const isVariable = (instancePath: string) => {
    const value = pointerToPath(instancePath).reduce<unknown>((node, key) => (node as Record<string | number, unknown>)?.[key], step.with);
    return typeof value === "string" && value.includes("${");
  };
  return toDiagnostics(validate.errors ?? [], scenario, [...base, "with"], (error) => isVariable(error.instancePath));
}

/**
 * Each capability the step's operations, or the input keys it gives them, need (`x-capability`) and
 * the scenario does not require: without it in `requires`, a port lacking it would fail, not skip.
 */
export function checkCapabilities(
  scenario: ScenarioFile,
  step: OperationStep,
  base: Path,
  { variable, ops }: StepOperations,
  requires: string[],
): Diagnostic[] {
  const problems: Diagnostic[] = [];
  const missing = (capability: string | undefined): capability is string => capability !== undefined && !requires.includes(capability);
  for (const op of ops) {
    const needed = capabilitiesOfOperation(op).operation;
    if (missing(needed))
      problems.push(
        at(
          scenario,
          [...base, "op"],
          `operation ${op} needs capability "${needed}", which this scenario does not require`,
          `add ${needed} to requires: (a port that cannot ${op} is then skipped, not failed)`,
        ),
      );
  }
  // Every key path (`abortAfterMs`, nested `hooks.afterLLM`) some op gives a capability, that this step's input holds.
  const given = (path: string) =>
    path.split(".").reduce<unknown>((node, key) => (isRecord(node) ? node[key] : undefined), step.with) !== undefined;
  const paths = [...new Set(ops.flatMap((op) => Object.keys(capabilitiesOfOperation(op).keys)))].filter(given);
  for (const key of paths) {
    const byCapability = new Map<string, string[]>();
    for (const op of ops) {
      const needed = capabilitiesOfOperation(op).keys[key];
      if (missing(needed)) byCapability.set(needed, [...(byCapability.get(needed) ?? []), op]);
    }
    for (const [capability, needing] of byCapability) {
      const on = variable && needing.length === ops.length ? step.op : needing.join(" or ");
      problems.push(
        at(
          scenario,
          [...base, "with", ...key.split(".")],
          `${key} on ${on} needs capability "${capability}", which this scenario does not require`,
          `add ${capability} to requires: (a port without ${capability} is then skipped, not failed)`,
        ),
      );
    }
  }
  return problems;
}
