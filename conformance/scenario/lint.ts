// Lint: everything that can be wrong with a scenario before it runs, each reported at file:line:column
// with what was expected, plus the coverage of SPEC.md clauses. `run` refuses to start on any of these.
import { fixtureKinds } from "../../fixtures/registry.ts";
import type { Assertion, FixtureStep, OperationStep } from "../schema/scenario.types.ts";
import { referencedVariables } from "../engine/variables.ts";
import { clientPaths, expandScenario, pathVariables, whenMatches, type ClientPath, type ExpandedScenario } from "./expand.ts";
import { findScenarioFiles, readScenarioFile, type Diagnostic, type LoadedScenario, type ScenarioFile } from "./load.ts";
import { readSpecClauses, type SpecClause } from "./spec-clauses.ts";
import { compileSchema } from "../schema/validator.ts";
import { knownCapabilities } from "../subjects/subject.ts";
import { operationNames, operationValidator, pointerToPath, toDiagnostics, validateScenarioSchema } from "./validate.ts";


export interface LintResult {
  scenarios: LoadedScenario[];
  expanded: ExpandedScenario[];
  diagnostics: Diagnostic[];
  clauses: SpecClause[];
  /** Clause id -> ids of the (unexpanded) scenarios that cite it. */
  coverage: Map<string, string[]>;
  /** Every `.yaml` file read, including those that failed. */
  files: string[];
}

export async function lintPaths(paths: string[]): Promise<LintResult> {
  const files = await findScenarioFiles(paths);
  const clauses = await readSpecClauses();
  const diagnostics: Diagnostic[] = [];
  const scenarios: LoadedScenario[] = [];
  for (const path of files) {
    const { scenario, diagnostics: parseProblems } = await readScenarioFile(path);
    diagnostics.push(...parseProblems);
    if (parseProblems.length) continue;
    const schemaProblems = validateScenarioSchema(scenario);
    diagnostics.push(...schemaProblems);
    if (schemaProblems.length) continue;
    const loaded = scenario as LoadedScenario;
    const problems = checkScenario(loaded, new Set(clauses.map((clause) => clause.id)));
    diagnostics.push(...problems);
    if (!problems.length) scenarios.push(loaded);
  }
  diagnostics.push(...checkUniqueIds(scenarios));
  const coverage = new Map<string, string[]>(clauses.map((clause) => [clause.id, []]));
  for (const scenario of scenarios) for (const id of scenario.data.spec) coverage.get(id)?.push(scenario.data.id);
  return { scenarios, expanded: scenarios.flatMap(expandScenario), diagnostics, clauses, coverage, files };
}

function at(scenario: ScenarioFile, path: (string | number)[], message: string, hint?: string): Diagnostic {
  return { file: scenario.file, ...scenario.locate(path), message, hint };
}

function checkUniqueIds(scenarios: LoadedScenario[]): Diagnostic[] {
  const seen = new Map<string, LoadedScenario>();
  const problems: Diagnostic[] = [];
  for (const scenario of scenarios) {
    for (const expanded of expandScenario(scenario)) {
      const first = seen.get(expanded.id);
      if (first && first !== scenario) {
        const where = `${first.file}:${first.locate(["id"]).line}`;
        problems.push(at(scenario, ["id"], `duplicate scenario id "${expanded.id}", first defined at ${where}`, "give this scenario a new id"));
        break;
      }
      seen.set(expanded.id, scenario);
    }
  }
  return problems;
}

/** Operations that only some ports can expose, each behind its capability (runners/PROTOCOL.md#capabilities). */
const capabilityOfOperation: Record<string, string> = { "mcp.parse": "mcp.parse" };

/** Checks beyond the schema: clause ids, capabilities, fixtures, operations, variables. */
function checkScenario(scenario: LoadedScenario, clauseIds: Set<string>): Diagnostic[] {
  const data = scenario.data;
  const problems: Diagnostic[] = [];
  data.spec.forEach((id, index) => {
    if (!clauseIds.has(id)) problems.push(at(scenario, ["spec", index], `clause "${id}" is not defined in SPEC.md`, closest(id, clauseIds)));
  });
  (data.requires ?? []).forEach((capability, index) => {
    if (!knownCapabilities.includes(capability)) {
      problems.push(at(scenario, ["requires", index], `unknown capability "${capability}"`, closest(capability, new Set(knownCapabilities))));
    }
  });
  const fixtures = data.fixtures ?? {};
  for (const [name, fixture] of Object.entries(fixtures)) {
    const kind = fixtureKinds.get(fixture.kind);
    if (!kind) {
      problems.push(at(scenario, ["fixtures", name, "kind"], `unknown fixture kind "${fixture.kind}"`, `expected one of: ${[...fixtureKinds.keys()].join(", ")}`));
      continue;
    }
    const validateOptions = compileSchema(kind.optionsSchema);
    if (!validateOptions(fixture.options ?? {})) problems.push(...toDiagnostics(validateOptions.errors ?? [], scenario, ["fixtures", name, "options"]));
  }
  problems.push(...checkWhens(scenario));
  // Variables available so far: path.* (matrix only), FIXTURE.KEY, then captures in step order.
  const available = new Set<string>(data.matrix ? Object.keys(pathVariables("openai-run")) : []);
  for (const [name, fixture] of Object.entries(fixtures)) {
    for (const key of fixtureKinds.get(fixture.kind)?.varKeys ?? []) available.add(`${name}.${key}`);
  }
  data.steps.forEach((step, index) => {
    const base = ["steps", index];
    if ("fixture" in step) problems.push(...checkFixtureStep(scenario, step, base, fixtures));
    else {
      problems.push(...checkOperationStep(scenario, step, base, Boolean(data.matrix)));
      const needed = capabilityOfOperation[step.op];
      if (needed && !(data.requires ?? []).includes(needed)) {
        problems.push(at(scenario, [...base, "op"], `operation ${step.op} needs capability "${needed}", which this scenario does not require`, `add ${needed} to requires: (a port that cannot ${step.op} is then skipped, not failed)`));
      }
    }
    for (const name of referencedVariables(step.with)) {
      if (!available.has(name)) {
        problems.push(at(scenario, [...base, "with"], `\${${name}} is used before it is set`, hintForVariable(name, available)));
      }
    }
    if ("capture" in step) for (const name of Object.keys(step.capture ?? {})) available.add(name);
    (step.expect ?? []).forEach((assertion, assertionIndex) => {
      problems.push(...checkAssertion(scenario, assertion, [...base, "expect", assertionIndex], fixtures, available));
    });
  });
  return problems;
}

function checkFixtureStep(scenario: LoadedScenario, step: FixtureStep, base: (string | number)[], fixtures: Record<string, { kind: string }>): Diagnostic[] {
  const declared = fixtures[step.fixture];
  if (!declared) return [at(scenario, [...base, "fixture"], `fixture "${step.fixture}" is not declared`, `declare it under fixtures:, or use one of: ${Object.keys(fixtures).join(", ") || "(none declared)"}`)];
  const kind = fixtureKinds.get(declared.kind);
  if (!kind) return [];
  if (!kind.actions.includes(step.action)) {
    return [at(scenario, [...base, "action"], `fixture kind "${declared.kind}" has no action "${step.action}"`, `expected one of: ${kind.actions.join(", ") || "(none)"}`)];
  }
  // An input built from variables can only be checked when the scenario runs.
  if (!kind.checkAction || referencedVariables(step.with).size) return [];
  return kind.checkAction(step.action, step.with).map((problem) => at(scenario, [...base, "with", ...problem.path], problem.message));
}

/** A `when` outside a matrix, or one that no expansion of this scenario matches, would silently drop its step or assertion. */
function checkWhens(scenario: LoadedScenario): Diagnostic[] {
  const matrix = scenario.data.matrix;
  const paths: ClientPath[] = matrix === undefined ? [] : matrix === "client-paths" ? [...clientPaths] : [...matrix];
  const problems: Diagnostic[] = [];
  const check = (when: Parameters<typeof whenMatches>[0], path: (string | number)[]) => {
    if (!when) return;
    if (!paths.length) problems.push(at(scenario, path, "`when` only applies to a scenario with a matrix", "add `matrix:` or remove `when`"));
    else if (!paths.some((clientPath) => whenMatches(when, pathVariables(clientPath)))) {
      problems.push(at(scenario, path, `this \`when\` matches none of the scenario's paths (${paths.join(", ")}), so what it guards never runs`, "fix the values or the matrix"));
    }
  };
  scenario.data.steps.forEach((step, index) => {
    check(step.when, ["steps", index, "when"]);
    (step.expect ?? []).forEach((assertion, assertionIndex) => check(assertion.when, ["steps", index, "expect", assertionIndex, "when"]));
  });
  return problems;
}

function checkOperationStep(scenario: LoadedScenario, step: OperationStep, base: (string | number)[], isMatrix: boolean): Diagnostic[] {
  if (step.op === "${path.op}") {
    return isMatrix ? [] : [at(scenario, [...base, "op"], "${path.op} is only defined in a scenario with a matrix", "add `matrix: client-paths` or name the operation")];
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

function checkAssertion(
  scenario: LoadedScenario,
  assertion: Assertion,
  path: (string | number)[],
  fixtures: Record<string, { kind: string }>,
  available: Set<string>,
): Diagnostic[] {
  const problems: Diagnostic[] = [];
  if (assertion.fixture !== undefined && !(assertion.fixture in fixtures)) {
    problems.push(at(scenario, [...path, "fixture"], `fixture "${assertion.fixture}" is not declared`));
  } else if (assertion.fixture !== undefined && fixtureKinds.get(fixtures[assertion.fixture].kind)?.observes === false) {
    const kind = fixtures[assertion.fixture].kind;
    problems.push(at(scenario, [...path, "fixture"], `fixture kind "${kind}" observes nothing: an assertion on its snapshot could never fail`, "assert on the subject's result instead"));
  }
  if (assertion.var !== undefined && !available.has(assertion.var)) {
    problems.push(at(scenario, [...path, "var"], `variable "${assertion.var}" is used before it is captured`, hintForVariable(assertion.var, available)));
  }
  const matchers = matcherKeys.filter((key) => key in assertion);
  if (matchers.length !== 1) {
    problems.push(at(scenario, path, `an assertion needs exactly one matcher, found ${matchers.length ? matchers.join(", ") : "none"}`, `use one of: ${matcherKeys.join(", ")}`));
  }
  const expectedValue = matcherKeys.map((key) => (assertion as unknown as Record<string, unknown>)[key]).find((value) => value !== undefined);
  if (referencedVariables(expectedValue).size) {
    problems.push(at(scenario, path, "`${...}` is not substituted in expectations: it would be compared as text", "capture the value and assert with `var:`, or write the value out"));
  }
  for (const key of ["eventuallyMs", "holdsForMs"] as const) {
    if (assertion[key] !== undefined && assertion.fixture === undefined) {
      problems.push(at(scenario, [...path, key], `${key} only makes sense on a fixture snapshot`, `add fixture:, or drop ${key}`));
    }
  }
  return problems;
}

export const matcherKeys = [
  "equals", "subset", "absent", "present", "setEquals", "orderedEquals", "contains", "notContains",
  "length", "atMost", "atLeast", "jsonEquals", "matches", "type",
] as const;

function hintForVariable(name: string, available: Set<string>): string {
  return available.size ? `set it with capture: in an earlier step; available here: ${[...available].join(", ")}` : "set it with capture: in an earlier step";
}

/** "did you mean" by edit distance, when something is close. */
function closest(word: string, candidates: Set<string>): string | undefined {
  let best: string | undefined;
  let bestDistance = Math.max(3, Math.floor(word.length / 3)) + 1;
  for (const candidate of candidates) {
    const distance = editDistance(word, candidate);
    if (distance < bestDistance) [best, bestDistance] = [candidate, distance];
  }
  return best ? `did you mean "${best}"?` : undefined;
}

function editDistance(a: string, b: string): number {
  let previous = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const current = [i];
    for (let j = 1; j <= b.length; j++) {
      current[j] = Math.min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (a[i - 1] === b[j - 1] ? 0 : 1));
    }
    previous = current;
  }
  return previous[b.length];
}
