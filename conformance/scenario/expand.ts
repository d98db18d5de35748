// Matrix expansion: one scenario over the paths of its matrix (the suite names them: toolnexus's
// client paths are run/stream x openai/anthropic), each expansion with its own id, its own `${path.*}`
// variables, and the steps and assertions its `when` selects.
import type { Assertion, FixtureStep, OperationStep, Scenario, When } from "../schema/scenario.types.ts";
import type { LoadedScenario } from "./load.ts";

/** What expansion needs of the suite (part of its SuiteDefinition). */
export interface ExpansionSuite {
  /** The named matrices `matrix: NAME` expands over, each a list of paths. */
  matrices: Readonly<Record<string, readonly string[]>>;
  /** A path's `${path.*}` variables. */
  pathVariables(path: string): Record<string, string>;
  /** The capabilities a subject needs to run a path, beyond the scenario's `requires`. */
  pathRequires(path: string): string[];
}

/** The paths a scenario's `matrix` names: a named matrix, or a list written out; none without one. */
export function matrixPaths(matrix: string | readonly string[] | undefined, suite: Pick<ExpansionSuite, "matrices">): string[] {
  if (matrix === undefined) return [];
  if (typeof matrix === "string") return [...(suite.matrices[matrix] ?? [])];
  return [...matrix];
}

/** A step as written, without its assertions (the expansion's own are in `ExpandedStep.expect`). */
export type StepBody = Omit<OperationStep, "expect"> | Omit<FixtureStep, "expect">;

/** An assertion an expansion keeps, with where it is written: reports name it without searching for it. */
export interface ExpandedAssertion {
  assertion: Assertion;
  /** Index in the step's `expect` list in the file. */
  index: number;
  /** Line of the assertion in the file. */
  line: number;
  /**
   * 1-based, among the step's assertions (in the file) on the same target and pointer, when there are
   * several: a check id needs it to tell them apart. Absent when the pair is unique.
   */
  occurrence?: number;
}

export interface ExpandedStep {
  /** Index of the step in the scenario file (for positions and reports). */
  index: number;
  /** Line of the step in the file. */
  line: number;
  step: StepBody;
  /** The assertions whose `when` this expansion matches, in file order. */
  expect: ExpandedAssertion[];
}

export interface ExpandedScenario {
  id: string;
  baseId: string;
  title: string;
  spec: string[];
  tags: string[];
  requires: string[];
  source: LoadedScenario;
  /** `path.style`, `path.mode`, `path.op`, `path.id` for matrix expansions; empty otherwise. */
  pathVars: Record<string, string>;
  fixtures: NonNullable<Scenario["fixtures"]>;
  steps: ExpandedStep[];
  timeoutMs: number;
  /** Why its times do not stretch with a time scale (time-scale.ts), when they do not. */
  fixedTimes?: string;
}

export const defaultStepTimeoutMs = 10_000;

export function whenMatches(when: When | undefined, vars: Record<string, string>): boolean {
  if (!when) return true;
  return Object.entries(when).every(([name, wanted]) => {
    const actual = vars[name];
    return Array.isArray(wanted) ? wanted.includes(actual) : wanted === actual;
  });
}

/** Where an assertion looks: the step result, a fixture's snapshot or a captured variable; and at what. */
export const assertionTarget = (assertion: Assertion) =>
  `${assertion.fixture !== undefined ? `fixture ${assertion.fixture}` : assertion.var !== undefined ? `var ${assertion.var}` : "result"}\u0000${assertion.at}`;

/** Every assertion of a step with its position, numbered among those sharing its target and pointer. */
function positionedAssertions(source: LoadedScenario, stepIndex: number, expect: Assertion[]): ExpandedAssertion[] {
  const counts = new Map<string, number>();
  for (const assertion of expect) counts.set(assertionTarget(assertion), (counts.get(assertionTarget(assertion)) ?? 0) + 1);
  const seen = new Map<string, number>();
  return expect.map((assertion, index) => {
    const key = assertionTarget(assertion);
    seen.set(key, (seen.get(key) ?? 0) + 1);
    const line = source.locate(["steps", stepIndex, "expect", index]).line;
    return { assertion, index, line, ...(counts.get(key)! > 1 ? { occurrence: seen.get(key)! } : {}) };
  });
}

export function expandScenario(source: LoadedScenario, suite: ExpansionSuite): ExpandedScenario[] {
  const scenario = source.data;
  // Positions come from the file once; every expansion shares them.
  const positioned = scenario.steps.map((step, index) => ({
    line: source.locate(["steps", index]).line,
    expect: positionedAssertions(source, index, step.expect ?? []),
  }));
  const paths: (string | undefined)[] = scenario.matrix === undefined ? [undefined] : matrixPaths(scenario.matrix, suite);
  return paths.map((path) => {
    const pathVars = path ? suite.pathVariables(path) : {};
    const requires = [...(scenario.requires ?? [])];
    if (path) requires.push(...suite.pathRequires(path));
    const steps: ExpandedStep[] = [];
    scenario.steps.forEach((step, index) => {
      if (!whenMatches(step.when, pathVars)) return;
      const { expect: _all, ...body } = step;
      const expect = positioned[index].expect.filter(({ assertion }) => whenMatches(assertion.when, pathVars));
      steps.push({ index, line: positioned[index].line, step: body, expect });
    });
    return {
      id: path ? `${scenario.id}[${path}]` : scenario.id,
      baseId: scenario.id,
      title: scenario.title,
      spec: scenario.spec,
      tags: scenario.tags ?? [],
      requires: [...new Set(requires)],
      source,
      pathVars,
      fixtures: scenario.fixtures ?? {},
      steps,
      timeoutMs: scenario.timeoutMs ?? defaultStepTimeoutMs,
      ...(scenario.fixedTimes ? { fixedTimes: scenario.fixedTimes } : {}),
    };
  });
}
