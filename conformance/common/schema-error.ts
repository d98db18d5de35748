// One phrasing of a JSON Schema error for every file a person writes and the harness reads (scenarios,
// baselines, captures, runner manifests): what is wrong at the pointer, and what was expected there.
// It reads ajv's verbose fields (parentSchema, data), which compileSchema's validator always sets. A
// runner's answers are phrased apart, by runners/protocol/protocol.ts (the deepest error of a oneOf,
// with the value found), which runners/ts shares and which imports nothing of the harness.
import type { ErrorObject } from "ajv/dist/2020.js";
import { pointerToPath } from "./json.ts";

export interface SchemaErrorText {
  /** What is wrong, without where (callers say the file, line and pointer their own way). */
  message: string;
  /** What was expected, when the schema says it. */
  hint?: string;
}

export function describeSchemaError(error: ErrorObject): SchemaErrorText {
  const params = error.params as Record<string, unknown>;
  switch (error.keyword) {
    case "required":
      return { message: `missing key "${params.missingProperty}"`, hint: `add "${params.missingProperty}"` };
    case "additionalProperties": {
      const allowed = Object.keys((error.parentSchema as { properties?: object }).properties ?? {});
      return {
        message: `unknown key "${params.additionalProperty}"`,
        hint: allowed.length ? `expected one of: ${allowed.join(", ")}` : "remove it",
      };
    }
    case "enum":
      return {
        message: `${error.message}`,
        hint: `expected one of: ${(params.allowedValues as unknown[]).map((value) => JSON.stringify(value)).join(", ")}`,
      };
    case "const":
      return { message: `must be ${JSON.stringify(params.allowedValue)}` };
    case "pattern":
      return { message: `does not match ${params.pattern}` };
    case "type":
      // Show what was written, e.g. length: "3".
      return {
        message: `${error.message}, found ${shortJson(error.data)}${error.data === null ? "" : ` (${describeValue(error.data)})`}`,
      };
    default:
      return { message: `${error.message}` };
  }
}

/** The message and its hint on one line: `unknown key "x" (expected one of: a, b)`. */
export const schemaErrorLine = ({ message, hint }: SchemaErrorText): string => (hint ? `${message} (${hint})` : message);

/** Where a reader should look: an unknown key itself, not the object holding it; else the value the error is about. */
export function schemaErrorPath(error: ErrorObject): { path: (string | number)[]; key: boolean } {
  const path = pointerToPath(error.instancePath);
  return error.keyword === "additionalProperties"
    ? { path: [...path, String((error.params as { additionalProperty: string }).additionalProperty)], key: true }
    : { path, key: false };
}

function shortJson(value: unknown): string {
  const text = JSON.stringify(value) ?? "nothing";
  return text.length > 60 ? `${text.slice(0, 57)}...` : text;
}

function describeValue(value: unknown): string {
  if (Array.isArray(value)) return "a list";
  return typeof value === "object" ? "an object" : `a ${typeof value}`;
}
