// Lint: everything that can be wrong with a scenario before it runs, each reported at file:line:column
// with what was expected, plus the coverage of SPEC.md clauses. `run` refuses to start on any of these.
// The checks live in lint/, one job each: ids.ts (id = path, used once), scenario.ts (one scenario,
// step by step), fixtures.ts, operations.ts, whens.ts, assertions.ts.
import { isRecord } from "../common/json.ts";
import { expandScenario, type ExpandedScenario } from "./expand.ts";
import { findScenarioFiles, readScenarioFile, type Diagnostic, type LoadedScenario, type ScenarioFile } from "./load.ts";
import { readSpecClauses, type SpecClause } from "./spec-clauses.ts";
import type { SuiteDefinition } from "./suite-definition.ts";
import { checkScenarioSchema } from "./validate.ts";
import { checkIds } from "./lint/ids.ts";
import { checkScenario } from "./lint/scenario.ts";
import { gateBoundaries, type BoundaryGate } from "./boundaries/gate.ts";
import { boundaryTable } from "./boundaries/table.ts";

export interface LintResult {
  scenarios: LoadedScenario[];
  expanded: ExpandedScenario[];
  diagnostics: Diagnostic[];
  clauses: SpecClause[];
  /** Clause id -> ids of the (unexpanded) scenarios that cite it. */
  coverage: Map<string, string[]>;
  /** Every `.yaml` file read, including those that failed. */
  files: string[];
  /** The boundary-value table and its gate, when asked for (it means something for the whole suite only). */
  boundaries?: BoundaryGate;
}

/**
 * Lint `paths` (files or folders) against `suite`: its fixture kinds, capabilities and matrices; with
 * `boundaries`, also gate the boundary-value table of those scenarios (give it the whole suite).
 */
export async function lintPaths(paths: string[], suite: SuiteDefinition, options: { boundaries?: boolean } = {}): Promise<LintResult> {
  const files = await findScenarioFiles(paths);
  const clauses = await readSpecClauses();
  const diagnostics: Diagnostic[] = [];
  const scenarios: LoadedScenario[] = [];
  const withIds: ScenarioFile[] = [];
  for (const path of files) {
    const { scenario, diagnostics: parseProblems } = await readScenarioFile(path);
    diagnostics.push(...parseProblems);
    if (parseProblems.length) continue;
    // The schema's problems and the semantic ones of the well-formed rest, in one pass.
    const schema = checkScenarioSchema(scenario);
    diagnostics.push(...schema.diagnostics);
    const problems = checkScenario(scenario, suite, new Set(clauses.map((clause) => clause.id)), schema.problems);
    diagnostics.push(...problems);
    if (!schema.diagnostics.length && !problems.length) scenarios.push(scenario as LoadedScenario);
    if (isRecord(scenario.data) && typeof scenario.data.id === "string") withIds.push(scenario);
  }
  diagnostics.push(...(await checkIds(withIds)));
  const coverage = new Map<string, string[]>(clauses.map((clause) => [clause.id, []]));
  for (const scenario of scenarios) for (const id of scenario.data.spec) coverage.get(id)?.push(scenario.data.id);
  const expanded = scenarios.flatMap((scenario) => expandScenario(scenario, suite));
  const boundaries = options.boundaries
    ? await gateBoundaries(boundaryTable(expanded, suite.boundaries), suite.boundaries.explanationsFile)
    : undefined;
  // A scenario that failed lint gives no cell, so the gate judges only a suite that lints clean.
  if (boundaries && !diagnostics.length) diagnostics.push(...boundaries.diagnostics);
  return { scenarios, expanded, diagnostics, clauses, coverage, files, boundaries };
}
