// How lint phrases a problem: at a path of the scenario file (its line and column), with a hint.
import { closestName } from "../closest-name.ts";
import type { Diagnostic, ScenarioFile } from "../load.ts";

/** Keys and indexes from the scenario's top: ["steps", 2, "with", "abortAfterMs"]. */
export type Path = (string | number)[];

export function at(scenario: ScenarioFile, path: Path, message: string, hint?: string): Diagnostic {
  return { file: scenario.file, ...scenario.locate(path), message, hint };
}

/** A lint hint for an unknown id: the nearest known one (a wider reach than the CLI's, as ids are long). */
export function closest(word: string, candidates: Set<string>): string | undefined {
  const best = closestName(word, candidates, 3);
  return best ? `did you mean "${best}"?` : undefined;
}

export function hintForVariable(name: string, available: ReadonlyMap<string, unknown>): string {
  return available.size
    ? `set it with capture: in an earlier step; available here: ${[...available.keys()].join(", ")}`
    : "set it with capture: in an earlier step";
}
