// Where the schema found a problem the semantic checks stay away: a malformed part would only crash
// them or repeat the schema's words.
import type { SchemaProblem } from "../validate.ts";
import type { Path } from "./diagnostic.ts";

const startsWith = (path: Path, prefix: Path) => prefix.every((key, index) => path[index] === key);

export interface MalformedParts {
  /** A problem at or under `path`, except under its child key `except` (a step's `expect`). */
  malformed(path: Path, except?: string): boolean;
  /** The node itself, not one of its children: a list or map whose entries are checked one by one. */
  malformedItself(path: Path): boolean;
}

/** An unknown key does not make its object malformed (the known keys are still checked). */
export function malformedParts(problems: SchemaProblem[]): MalformedParts {
  // `if` only repeats the precise problem of its branch, deeper down.
  const paths = problems
    .filter((problem) => problem.keyword !== "additionalProperties" && problem.keyword !== "if")
    .map((problem) => problem.path);
  return {
    malformed: (path, except) =>
      paths.some((problem) => startsWith(problem, path) && !(except !== undefined && problem[path.length] === except)),
    malformedItself: (path) => paths.some((problem) => problem.length === path.length && startsWith(problem, path)),
  };
}
