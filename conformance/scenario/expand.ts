// Matrix expansion: one scenario over the client paths (run/stream x openai/anthropic), each expansion
// with its own id, its own `${path.*}` variables, and the steps and assertions its `when` selects.
import type { Assertion, FixtureStep, OperationStep, Scenario, When } from "../schema/scenario.types.ts";
import type { LoadedScenario } from "./load.ts";

export const clientPaths = ["openai-run", "openai-stream", "anthropic-run", "anthropic-stream"] as const;
export type ClientPath = (typeof clientPaths)[number];

export interface ExpandedStep {
  /** Index of the step in the scenario file (for positions and reports). */
  index: number;
  step: OperationStep | FixtureStep;
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
}

export const defaultStepTimeoutMs = 10_000;

export function pathVariables(path: ClientPath): Record<string, string> {
  const [style, mode] = path.split("-") as ["openai" | "anthropic", "run" | "stream"];
  return { "path.id": path, "path.style": style, "path.mode": mode, "path.op": `client.${mode}` };
}

export function whenMatches(when: When | undefined, vars: Record<string, string>): boolean {
  if (!when) return true;
  return Object.entries(when).every(([name, wanted]) => {
    const actual = vars[name];
    return Array.isArray(wanted) ? wanted.includes(actual) : wanted === actual;
  });
}

function selectAssertions(expect: Assertion[] | undefined, vars: Record<string, string>): Assertion[] | undefined {
  return expect?.filter((assertion) => whenMatches(assertion.when, vars));
}

export function expandScenario(source: LoadedScenario): ExpandedScenario[] {
  const scenario = source.data;
  const paths: (ClientPath | undefined)[] =
    scenario.matrix === undefined ? [undefined] : scenario.matrix === "client-paths" ? [...clientPaths] : [...scenario.matrix];
  return paths.map((path) => {
    const pathVars = path ? pathVariables(path) : {};
    const requires = [...(scenario.requires ?? [])];
    if (path) requires.push(`style.${pathVars["path.style"]}`, `client.${pathVars["path.mode"]}`);
    const steps: ExpandedStep[] = [];
    scenario.steps.forEach((step, index) => {
      if (!whenMatches(step.when, pathVars)) return;
      steps.push({ index, step: { ...step, expect: selectAssertions(step.expect, pathVars) } });
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
    };
  });
}
