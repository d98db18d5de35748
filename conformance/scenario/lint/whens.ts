// `matrix:` (names the suite knows) and the `when:` guards: each guard must be able to hold in some expansion of the scenario's matrix.
import { isRecord } from "../../common/json.ts";
import type { Scenario, When } from "../../schema/scenario.types.ts";
import { whenMatches } from "../expand.ts";
import type { Diagnostic, ScenarioFile } from "../load.ts";
import { matrixPaths } from "../expand.ts";
import type { SuiteDefinition } from "../suite-definition.ts";
import { at, closest, type Path } from "./diagnostic.ts";

/** `matrix:` names a matrix of the suite, or lists paths of the suite's matrices (the format names none of its own). */
export function checkMatrix(scenario: ScenarioFile, matrix: unknown, suite: SuiteDefinition): Diagnostic[] {
  const matrices = new Set(Object.keys(suite.matrices));
  if (typeof matrix === "string")
    return matrices.has(matrix)
      ? []
      : [
          at(
            scenario,
            ["matrix"],
            `unknown matrix "${matrix}" (the suite's: ${[...matrices].join(", ") || "none"})`,
            closest(matrix, matrices),
          ),
        ];
  if (!Array.isArray(matrix)) return [];
  const paths = new Set(Object.values(suite.matrices).flat());
  return matrix.flatMap((path, index) =>
    typeof path !== "string" || paths.has(path)
      ? []
      : [at(scenario, ["matrix", index], `unknown path "${path}" (the suite's: ${[...paths].join(", ")})`, closest(path, paths))],
  );
}

/** A `when` outside a matrix, or one that no expansion of this scenario matches, would silently drop its step or assertion. */
export function checkWhens(
  scenario: ScenarioFile,
  suite: SuiteDefinition,
  matrix: Scenario["matrix"],
  steps: unknown[],
  malformed: (path: Path) => boolean,
): Diagnostic[] {
  const paths = matrixPaths(matrix, suite);
  const problems: Diagnostic[] = [];
  const check = (when: unknown, path: Path) => {
    if (!isRecord(when) || malformed(path)) return;
    if (!paths.length)
      problems.push(at(scenario, path, "`when` only applies to a scenario with a matrix", "add `matrix:` or remove `when`"));
    else if (!paths.some((clientPath) => whenMatches(when as When, suite.pathVariables(clientPath)))) {
      problems.push(
        at(
          scenario,
          path,
          `this \`when\` matches none of the scenario's paths (${paths.join(", ")}), so what it guards never runs`,
          "fix the values or the matrix",
        ),
      );
    }
  };
  steps.forEach((step, index) => {
    if (!isRecord(step)) return;
    check(step.when, ["steps", index, "when"]);
    if (Array.isArray(step.expect))
      step.expect.forEach(
        (assertion, assertionIndex) => isRecord(assertion) && check(assertion.when, ["steps", index, "expect", assertionIndex, "when"]),
      );
  });
  return problems;
}
