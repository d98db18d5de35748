// Schema validation of scenario files and operation inputs, with errors phrased as what was expected.
import { createRequire } from "node:module";
import type { ErrorObject } from "ajv/dist/2020.js";
import { pointerToPath } from "../common/json.ts";
import { describeSchemaError, schemaErrorPath } from "../common/schema-error.ts";
import { compileSchema } from "../../runners/protocol/json-schema.ts";
import type { Diagnostic, ScenarioFile } from "./load.ts";

const require = createRequire(import.meta.url);
const scenarioSchema = require("../schema/scenario.schema.json");

const validateScenario = compileSchema(scenarioSchema);

/** The operations of runners/PROTOCOL.md, by name, and the validator of each one's input. */
export { operationNames, inputValidator as operationValidator } from "../../runners/protocol/protocol.ts";

/** The shared phrasing, at the pointer; a scenario's patterns are its ids and names, hence the hint. */
function describe(error: ErrorObject, prefix: string): { message: string; hint?: string } {
  const at = prefix + error.instancePath || "(top level)";
  const { message, hint } = describeSchemaError(error);
  return {
    message: `${at}: ${message}`,
    ...(error.keyword === "pattern" ? { hint: "use lower-case letters, digits, dots and dashes" } : hint ? { hint } : {}),
  };
}

/** Turn ajv errors into diagnostics, dropping the umbrella errors of oneOf/if that repeat a precise one. */
export function toDiagnostics(
  errors: ErrorObject[],
  scenario: ScenarioFile,
  base: (string | number)[] = [],
  ignore: (error: ErrorObject) => boolean = () => false,
): Diagnostic[] {
  const remaining = errors.filter((error) => !ignore(error));
  const precise = remaining.filter((error) => !["if", "oneOf", "anyOf"].includes(error.keyword));
  const chosen = precise.length ? precise : remaining.slice(0, 1);
  return chosen.map((error) => {
    const { path, key } = schemaErrorPath(error);
    const position = scenario.locate([...base, ...path], { key });
    const prefix = base.map((key) => `/${key}`).join("");
    return { file: scenario.file, ...position, ...describe(error, prefix) };
  });
}

export function validateScenarioSchema(scenario: ScenarioFile): Diagnostic[] {
  return checkScenarioSchema(scenario).diagnostics;
}

/** Where the schema found a problem: a path into the scenario data, and the keyword that failed there. */
export interface SchemaProblem {
  path: (string | number)[];
  keyword: string;
}

/** The schema's diagnostics, and where they are, so that lint can check the well-formed rest. */
export function checkScenarioSchema(scenario: ScenarioFile): { diagnostics: Diagnostic[]; problems: SchemaProblem[] } {
  if (validateScenario(scenario.data)) return { diagnostics: [], problems: [] };
  const errors = validateScenario.errors ?? [];
  return {
    diagnostics: toDiagnostics(errors, scenario),
    problems: errors.map((error) => ({ path: pointerToPath(error.instancePath), keyword: error.keyword })),
  };
}
