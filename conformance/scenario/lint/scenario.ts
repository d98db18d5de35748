// Checks beyond the schema, for one scenario: clause ids, capabilities, fixtures, then each step in
// order (operations, variables, assertions). Run on a file the schema rejected too, on the parts it
// found well-formed.
import { isRecord } from "../../common/json.ts";
import type { Assertion, FixtureStep, OperationStep, Scenario } from "../../schema/scenario.types.ts";
import type { Diagnostic, ScenarioFile } from "../load.ts";
import { shapeAt, stepResultShape, type Shape } from "../operand-types.ts";
import type { SuiteDefinition } from "../suite-definition.ts";
import type { SchemaProblem } from "../validate.ts";
import { referencedVariables } from "../variables.ts";
import { checkAssertion, type AssertionTarget } from "./assertions.ts";
import type { CheckContext } from "./context.ts";
import { at, closest, hintForVariable } from "./diagnostic.ts";
import { checkFixtureStep, checkSettled, declaredFixtures } from "./fixtures.ts";
import { checkIndependentStep } from "./independent.ts";
import { malformedParts, type MalformedParts } from "./malformed.ts";
import { checkCapabilities, checkOperationStep, stepOperations } from "./operations.ts";
import { checkMatrix, checkWhens } from "./whens.ts";

export function checkScenario(
  scenario: ScenarioFile,
  suite: SuiteDefinition,
  clauseIds: Set<string>,
  schemaProblems: SchemaProblem[] = [],
): Diagnostic[] {
  const data = scenario.data;
  if (!isRecord(data)) return [];
  const parts = malformedParts(schemaProblems);
  const { malformed, malformedItself } = parts;
  const problems: Diagnostic[] = [];
  const strings = (key: string) =>
    (Array.isArray(data[key]) && !malformedItself([key]) ? (data[key] as unknown[]) : [])
      .map((value, index) => ({ value, index }))
      .filter((entry): entry is { value: string; index: number } => typeof entry.value === "string" && !malformed([key, entry.index]));
  for (const { value: id, index } of strings("spec")) {
    if (!clauseIds.has(id))
      problems.push(at(scenario, ["spec", index], `clause "${id}" is not defined in SPEC.md`, closest(id, clauseIds)));
  }
  const requires = strings("requires").map(({ value }) => value);
  for (const { value: capability, index } of strings("requires")) {
    if (!suite.capabilities.includes(capability))
      problems.push(
        at(scenario, ["requires", index], `unknown capability "${capability}"`, closest(capability, new Set(suite.capabilities))),
      );
  }
  const declared = declaredFixtures(scenario, data, suite.fixtureKinds, parts);
  problems.push(...declared.problems);
  const steps = Array.isArray(data.steps) && !malformedItself(["steps"]) ? (data.steps as unknown[]) : [];
  if (!malformed(["matrix"])) {
    const matrixProblems = checkMatrix(scenario, data.matrix, suite);
    problems.push(...matrixProblems);
    if (!matrixProblems.length) problems.push(...checkWhens(scenario, suite, data.matrix as Scenario["matrix"], steps, malformed));
  }
  const context: CheckContext = {
    fixtureKinds: suite.fixtureKinds,
    fixtures: declared.fixtures,
    fixturesKnown: declared.fixturesKnown,
    available: initialVariables(data.matrix !== undefined, declared.fixtures, suite),
    unknowable: (name) => !declared.fixturesKnown || declared.unknownFixtures.has(name.split(".")[0]),
  };
  const capturedBy = new Map<string, number>();
  steps.forEach((step, index) => {
    if (isRecord(step))
      problems.push(
        ...checkStep(scenario, step, index, { suite, matrix: data.matrix as Scenario["matrix"], requires, context, capturedBy, parts }),
      );
  });
  return problems;
}

/**
 * Variables available before the first step: the suite's path variables (in a matrix scenario, a
 * malformed matrix too: its steps still name them) and each fixture's published values.
 */
function initialVariables(isMatrix: boolean, fixtures: CheckContext["fixtures"], suite: SuiteDefinition): Map<string, Shape | undefined> {
  const pathVariableNames = new Set(
    Object.values(suite.matrices).flatMap((paths) => paths.flatMap((path) => Object.keys(suite.pathVariables(path)))),
  );
  const available = new Map<string, Shape | undefined>(isMatrix ? [...pathVariableNames].map((name) => [name, { type: "string" }]) : []);
  for (const [name, fixture] of Object.entries(fixtures)) {
    for (const key of suite.fixtureKinds.get(fixture.kind)?.varKeys ?? []) available.set(`${name}.${key}`, undefined);
  }
  return available;
}

interface StepScope {
  suite: SuiteDefinition;
  matrix: Scenario["matrix"];
  requires: string[];
  context: CheckContext;
  /** The step that captured each variable so far (an independent step reads none of them). */
  capturedBy: Map<string, number>;
  parts: MalformedParts;
}

/** One step, in file order: what it does, the variables it uses, what it captures (for the steps after it), its assertions. */
function checkStep(
  scenario: ScenarioFile,
  step: Record<string, unknown>,
  index: number,
  { suite, matrix, requires, context, capturedBy, parts }: StepScope,
): Diagnostic[] {
  const problems: Diagnostic[] = [];
  const base = ["steps", index];
  const stepWellFormed = !parts.malformed(base, "expect");
  const isFixtureStep = "fixture" in step;
  const op = typeof step.op === "string" ? step.op : undefined;
  const operations = op === undefined ? undefined : stepOperations(op, matrix, suite);
  if (stepWellFormed) {
    if (isFixtureStep) problems.push(...checkFixtureStep(scenario, step as unknown as FixtureStep, base, context));
    else if (operations) {
      problems.push(
        ...checkOperationStep(scenario, step as unknown as OperationStep, base, operations.variable, matrix !== undefined, suite),
      );
      problems.push(...checkCapabilities(scenario, step as unknown as OperationStep, base, operations, requires));
    }
    for (const name of referencedVariables(step.with)) {
      if (!context.available.has(name) && !context.unknowable(name))
        problems.push(at(scenario, [...base, "with"], `\${${name}} is used before it is set`, hintForVariable(name, context.available)));
    }
  }
  const result: AssertionTarget = {
    shape: stepResultShape(isFixtureStep ? undefined : operations?.ops),
    name: isFixtureStep ? "the fixture step's result" : `the ${operations?.ops.join(" or ") ?? op} result`,
  };
  if (stepWellFormed) problems.push(...checkIndependentStep(scenario, step, base, capturedBy));
  if (isRecord(step.capture)) {
    for (const [name, pointer] of Object.entries(step.capture)) {
      context.available.set(name, typeof pointer === "string" ? shapeAt(result.shape, pointer) : undefined);
      capturedBy.set(name, index);
    }
  }
  if (stepWellFormed) problems.push(...checkSettled(scenario, step, base, context));
  if (!Array.isArray(step.expect)) return problems;
  step.expect.forEach((assertion, assertionIndex) => {
    const path = [...base, "expect", assertionIndex];
    if (isRecord(assertion) && !parts.malformed(path))
      problems.push(...checkAssertion(scenario, assertion as unknown as Assertion, path, context, result));
  });
  return problems;
}
