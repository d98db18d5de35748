// Schema validation of scenario files and operation inputs, with errors phrased as what was expected.
import { createRequire } from "node:module";
import type { ErrorObject } from "ajv/dist/2020.js";
import { pointerToPath } from "../common/json.ts";
import { compileSchema } from "../../runners/protocol/json-schema.ts";
import type { Diagnostic, ScenarioFile } from "./load.ts";

const require = createRequire(import.meta.url);
const scenarioSchema = require("../schema/scenario.schema.json");

const validateScenario = compileSchema(scenarioSchema);

/** The operations of runners/PROTOCOL.md, by name, and the validator of each one's input. */
export { operationNames, inputValidator as operationValidator } from "../../runners/protocol/protocol.ts";

function describe(error: ErrorObject, prefix: string): { message: string; hint?: string } {
  const at = prefix + error.instancePath || "(top level)";
  const params = error.params as Record<string, unknown>;
  switch (error.keyword) {
    case "required":
      return { message: `${at}: missing key "${params.missingProperty}"`, hint: `add "${params.missingProperty}"` };
    case "additionalProperties": {
      const allowed = Object.keys((error.parentSchema as { properties?: object })?.properties ?? {});
      return {
        message: `${at}: unknown key "${params.additionalProperty}"`,
        hint: allowed.length ? `expected one of: ${allowed.join(", ")}` : "remove it",
      };
    }
    case "enum":
      return {
        message: `${at}: ${error.message}`,
        hint: `expected one of: ${(params.allowedValues as unknown[]).map((v) => JSON.stringify(v)).join(", ")}`,
      };
    case "const":
      return { message: `${at}: must be ${JSON.stringify(params.allowedValue)}` };
    case "pattern":
      return { message: `${at}: does not match ${params.pattern}`, hint: "use lower-case letters, digits, dots and dashes" };
    case "type":
      // verbose ajv keeps the value: show what was written, e.g. length: "3".
      return {
        message: `${at}: ${error.message}, found ${shortJson(error.data)}${error.data === null ? "" : ` (${describeValue(error.data)})`}`,
      };
    default:
      return { message: `${at}: ${error.message}` };
  }
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
    const path = [...base, ...pointerToPath(error.instancePath)];
    // For an unknown key, point at the key itself rather than its parent object.
    const unknownKey = error.keyword === "additionalProperties";
    const target = unknownKey ? [...path, String((error.params as { additionalProperty: string }).additionalProperty)] : path;
    const position = scenario.locate(target, { key: unknownKey });
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

function shortJson(value: unknown): string {
  const text = JSON.stringify(value) ?? "nothing";
  return text.length > 60 ? `${text.slice(0, 57)}...` : text;
}

function describeValue(value: unknown): string {
  if (Array.isArray(value)) return "a list";
  return typeof value === "object" ? "an object" : `a ${typeof value}`;
}
