// What both ends of runners/PROTOCOL.md share (the harness and runners/ts alike): the version, the message types, each operation's
// input and output types, and the check of a result's value against the op's output schema. All of
// it comes from runners/protocol/*.schema.json; nothing here restates a shape.
import { createRequire } from "node:module";
import type { ErrorObject } from "ajv/dist/2020.js";
import type { ValidateFunction } from "ajv/dist/2020.js";
import type { Operations } from "./operations.types.ts";
import type { Crash, Error as ErrorAnswer, HelloAnswer, HelloRequest, Request, Result, Version } from "./protocol.types.ts";
import { ajv } from "./json-schema.ts";

const require = createRequire(import.meta.url);

// The protocol imports nothing of the harness (a runner copies this folder alone), so its one helper is its own.
const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === "object" && value !== null && !Array.isArray(value);
const protocolSchema = require("./protocol.schema.json");
const inputsSchema = require("./operations.schema.json");
const outputsSchema = require("./outputs.schema.json");

/** The protocol version, written once: protocol.schema.json `$defs.version`. */
export const protocolVersion: Version = protocolSchema.$defs.version.const;

/** Every capability a subject may declare, as the protocol schema defines them. */
export const knownCapabilities: readonly string[] = protocolSchema.$defs.capability.enum;

/** What the harness sends. */
export type HarnessMessage = HelloRequest | Request;
/** What a runner answers: a hello to a hello, one of the others to a request. */
export type RunnerAnswer = HelloAnswer | Result | ErrorAnswer | Crash;

export type OperationName = keyof Operations;
export type OperationInput<K extends OperationName> = Operations[K]["input"];
export type OperationOutput<K extends OperationName> = Operations[K]["output"];

ajv.addSchema(inputsSchema);
ajv.addSchema(outputsSchema);

/** The operations of runners/PROTOCOL.md, by name. */
// As in outputs.schema.json, a $defs name with a dot is an operation; one without is a shared part (scriptedAnswers).
export const operationNames = Object.keys(inputsSchema.$defs).filter((name) => name.includes(".")) as readonly OperationName[];

export function isOperationName(op: string): op is OperationName {
  return (operationNames as readonly string[]).includes(op);
}

/** The validator of an operation's input (operations.schema.json), or undefined for an unknown op. */
export function inputValidator<K extends OperationName>(op: K): ValidateFunction<OperationInput<K>>;
export function inputValidator(op: string): ValidateFunction | undefined;
export function inputValidator(op: string): ValidateFunction | undefined {
  return isOperationName(op) ? ajv.getSchema(`${inputsSchema.$id}#/$defs/${op}`) : undefined;
}

/**
 * The capability using an operation needs a scenario to require, from operations.schema.json's
 * `x-capability` on the operation (`mcp.parse`); its input keys' own are capabilitiesOfInput's.
 */
export function capabilitiesOfOperation(op: string): { operation?: string } {
  const schema = isOperationName(op) ? (inputsSchema.$defs[op] as { "x-capability"?: string }) : undefined;
  return { operation: schema?.["x-capability"] };
}

/** A key of an operation's input, at any depth, and the capability its schema's `x-capability` names. */
export interface CapabilityKey {
  /** The key's path in the input: property names, and list indexes where it sits in a list's items. */
  path: (string | number)[];
  capability: string;
}

/**
 * Each key an input gives whose schema carries `x-capability`, however deep (through `properties`,
 * `items` and `oneOf`): `waitFor` on client.create as well as `extraTools[0].suspend` on toolkit.create.
 */
export function capabilitiesOfInput(op: string, input: unknown): CapabilityKey[] {
  const found: CapabilityKey[] = [];
  const walk = (schema: unknown, value: unknown, path: (string | number)[]) => {
    if (!isRecord(schema)) return;
    for (const alternative of (schema.oneOf as unknown[] | undefined) ?? []) walk(alternative, value, path);
    if (isRecord(value) && isRecord(schema.properties))
      for (const [key, child] of Object.entries(value)) {
        const property = schema.properties[key];
        if (isRecord(property) && typeof property["x-capability"] === "string")
          found.push({ path: [...path, key], capability: property["x-capability"] });
        walk(property, child, [...path, key]);
      }
    if (Array.isArray(value)) value.forEach((item, index) => walk(schema.items, item, [...path, index]));
  };
  if (isOperationName(op)) walk(inputsSchema.$defs[op], input, []);
  return found;
}

/** An input key of an operation that creates a handle, or names one an earlier operation created. */
export interface HandleKey {
  key: string;
  /** The kind of handle (`client`, `toolkit`): handles of two kinds never share a name space. */
  kind: string;
  creates: boolean;
}

/** The handle keys of an operation's input, from operations.schema.json's `x-creates-handle` and `x-handle`. */
export function handleKeysOfOperation(op: string): HandleKey[] {
  const schema = isOperationName(op)
    ? (inputsSchema.$defs[op] as { properties?: Record<string, { "x-creates-handle"?: string; "x-handle"?: string }> })
    : undefined;
  return Object.entries(schema?.properties ?? {}).flatMap(([key, property]): HandleKey[] => {
    const created = property["x-creates-handle"];
    const kind = created ?? property["x-handle"];
    return kind ? [{ key, kind, creates: created !== undefined }] : [];
  });
}

/** Every `x-capability` a schema holds, at any depth. */
function capabilitiesInSchema(schema: unknown): string[] {
  if (Array.isArray(schema)) return schema.flatMap(capabilitiesInSchema);
  if (!isRecord(schema)) return [];
  const own = typeof schema["x-capability"] === "string" ? [schema["x-capability"]] : [];
  return [...own, ...Object.values(schema).flatMap(capabilitiesInSchema)];
}

/** Every capability operations.schema.json's `x-capability` names, at any depth, in schema order. */
export const operationCapabilities: readonly string[] = [
  ...new Set(operationNames.flatMap((op) => capabilitiesInSchema(inputsSchema.$defs[op]))),
];

/** The JSON Schema of an operation's input (operations.schema.json): its `properties` are its input fields. */
export function inputSchema(op: OperationName): { properties?: Record<string, Record<string, unknown>>; required?: string[] } {
  return inputsSchema.$defs[op];
}

/** The JSON Schema of an operation's output (outputs.schema.json), its shared parts left as $refs. */
export function outputSchema(op: OperationName): Record<string, unknown> {
  return outputsSchema.$defs[op];
}

/**
 * Whether `value` fits the output schema of `op`: undefined when it does (or the op is unknown, which
 * the runner answers `unsupported` anyway), else what is wrong: the pointer and what was expected.
 */
export function outputProblem(op: string, value: unknown): string | undefined {
  if (!isOperationName(op)) return undefined;
  const validate = ajv.getSchema(`${outputsSchema.$id}#/$defs/${op}`)!;
  if (validate(value)) return undefined;
  return describeProblem(validate.errors ?? []);
}

/** The most specific of ajv's errors, said as "at /usage/input: expected integer, found "3"". */
function describeProblem(errors: ErrorObject[]): string {
  // A oneOf that failed says only "must match exactly one schema", and the branches of another `type`
  // (a stream event's) are beside the point: the matching branch's own error says more.
  const specific = errors.filter(
    (error) => error.keyword !== "oneOf" && !(error.keyword === "const" && error.instancePath.endsWith("/type")),
  );
  const error = (specific.length ? specific : errors).reduce((deepest, next) =>
    next.instancePath.length > deepest.instancePath.length ? next : deepest,
  );
  const at = error.instancePath || "(top level)";
  const params = error.params as Record<string, unknown>;
  const found = "data" in error ? `, found ${JSON.stringify(error.data)?.slice(0, 120)}` : "";
  switch (error.keyword) {
    case "required":
      return `at ${at}: missing key "${params.missingProperty}"`;
    case "additionalProperties":
      return `at ${at}: unexpected key "${params.additionalProperty}" (expected only: ${Object.keys((error.parentSchema as { properties?: object })?.properties ?? {}).join(", ") || "no keys"})`;
    case "enum":
      return `at ${at}: expected one of ${(params.allowedValues as unknown[]).map((value) => JSON.stringify(value)).join(", ")}${found}`;
    case "const":
      return `at ${at}: expected ${JSON.stringify(params.allowedValue)}${found}`;
    case "type":
      return `at ${at}: expected ${[params.type].flat().join(" or ")}${found}`;
    default:
      return `at ${at}: ${error.message}${found}`;
  }
}
