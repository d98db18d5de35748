// Operation steps: a known operation (or a matrix variable standing for several), an input that fits
// it (runners/protocol/operations.schema.json), and the capabilities that schema's `x-capability`
// says the operation or an input key needs, which the scenario must require.
import { pointerToPath } from "../../common/json.ts";
import { capabilitiesOfInput, capabilitiesOfOperation, isOperationName } from "../../../runners/protocol/protocol.ts";
import type { OperationStep, Scenario } from "../../schema/scenario.types.ts";
import type { Diagnostic, ScenarioFile } from "../load.ts";
import { matrixPaths } from "../expand.ts";
import type { SuiteDefinition } from "../suite-definition.ts";
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
  // Keys at any depth (`extraTools[0].suspend`), each with the ops of the step that need a capability for it.
  const byKey = new Map<string, { path: (string | number)[]; byCapability: Map<string, string[]> }>();
  for (const op of ops)
    for (const { path, capability } of capabilitiesOfInput(op, step.with)) {
      if (!missing(capability)) continue;
      const name = path.map((part, index) => (typeof part === "number" ? `[${part}]` : index ? `.${part}` : part)).join("");
      const key = byKey.get(name) ?? { path, byCapability: new Map<string, string[]>() };
      key.byCapability.set(capability, [...(key.byCapability.get(capability) ?? []), op]);
      byKey.set(name, key);
    }
  for (const [name, { path, byCapability }] of byKey)
    for (const [capability, needing] of byCapability) {
      const on = variable && needing.length === ops.length ? step.op : needing.join(" or ");
      problems.push(
        at(
          scenario,
          [...base, "with", ...path],
          `${name} on ${on} needs capability "${capability}", which this scenario does not require`,
          `add ${capability} to requires: (a port without ${capability} is then skipped, not failed)`,
        ),
      );
    }
  return problems;
}
