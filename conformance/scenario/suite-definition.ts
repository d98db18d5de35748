// What a conformance suite tells the generic parts (scenario, engine) about itself. The generic parts
// know no fixture kind, capability or matrix of their own: the CLI hands them a SuiteDefinition
// (toolnexus's is conformance/suite/toolnexus.ts).
import type { Environment } from "../common/environment.ts";
import type { FixtureKind } from "./fixture.ts";
import type { SuiteBoundaries } from "./boundaries/table.ts";

export interface SuiteDefinition {
  /** The suite's name, as reports title themselves with it: "toolnexus" -> "toolnexus compliance matrix". */
  title: string;
  /**
   * The process environment the subjects must run in (variables its fixtures' configs name): whoever
   * opens subjects applies it first (conformance/common/environment.ts).
   */
  environment: Environment;
  /** The fixture kinds a scenario may declare, by name. */
  fixtureKinds: ReadonlyMap<string, FixtureKind>;
  /** The capabilities `requires:` may name. */
  capabilities: readonly string[];
  /** The named matrices `matrix: NAME` expands over, each a list of paths. */
  matrices: Readonly<Record<string, readonly string[]>>;
  /** A path's `${path.*}` variables. */
  pathVariables(path: string): Record<string, string>;
  /** The capabilities a subject needs to run a path, beyond the scenario's `requires`. */
  pathRequires(path: string): string[];
  /** The suite's rows of the boundary-value table beside the operations' own, and its explanations file. */
  boundaries: SuiteBoundaries;
}

/** The paths a scenario's `matrix` names: a named matrix, or a list written out; none without one. */
export function matrixPaths(matrix: string | readonly string[] | undefined, suite: Pick<SuiteDefinition, "matrices">): string[] {
  if (matrix === undefined) return [];
  if (typeof matrix === "string") return [...(suite.matrices[matrix] ?? [])];
  return [...matrix];
}
