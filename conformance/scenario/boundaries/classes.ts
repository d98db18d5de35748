// The boundary classes of an input field and the class of one value given to it. What a field admits
// comes from its JSON Schema alone (`type`, `enum`, `default`), so the table is read from the schemas
// that define the inputs, never from a list someone keeps.
import { createRequire } from "node:module";
import type { Explanation } from "../../schema/boundaries.types.ts";

export type BoundaryClass = Explanation["classes"][number];
/** Every class, in the table's column order: the explanations schema's list, written once. */
export const boundaryClasses: readonly BoundaryClass[] = createRequire(import.meta.url)("../../schema/boundaries.schema.json").$defs
  .explanation.properties.classes.items.enum;

/** The parts of a field's JSON Schema the classes depend on. */
export interface FieldSchema {
  type?: string | string[];
  enum?: unknown[];
  const?: unknown;
  default?: unknown;
  oneOf?: FieldSchema[];
  anyOf?: FieldSchema[];
}

/** The JSON types a field's schema allows; undefined when it says nothing (any value). */
function schemaTypes(schema: FieldSchema): Set<string> | undefined {
  if (schema.enum) return new Set(schema.enum.map(jsonType));
  if ("const" in schema) return new Set([jsonType(schema.const)]);
  const branches = schema.oneOf ?? schema.anyOf;
  if (branches) {
    const union = branches.map(schemaTypes);
    return union.some((types) => types === undefined) ? undefined : new Set(union.flatMap((types) => [...types!]));
  }
  if (schema.type === undefined) return undefined;
  return new Set(Array.isArray(schema.type) ? schema.type : [schema.type]);
}

function jsonType(value: unknown): string {
  if (value === null) return "null";
  if (Array.isArray(value)) return "array";
  if (typeof value === "number") return Number.isInteger(value) ? "integer" : "number";
  return typeof value;
}

const isNumeric = (types: Set<string> | undefined) => types === undefined || types.has("number") || types.has("integer");
const numericDefault = (schema: FieldSchema) => (typeof schema.default === "number" ? schema.default : undefined);

/**
 * The classes a field's type admits: every field can be absent (unless required), null or of a wrong type (a fixed set
 * of values, an enum, has no empty or zero of its own: anything outside it is a wrong value); a string
 * can be empty or non-ASCII, a list or an object empty, a number zero, negative, fractional, and one
 * above its default when the schema gives one. A field that takes any value has no wrong type.
 */
export function admittedClasses(schema: FieldSchema, required = false): BoundaryClass[] {
  const types = schemaTypes(schema);
  const fixed = schema.enum !== undefined || "const" in schema;
  const admits = (type: string) => !fixed && (types === undefined || types.has(type));
  // A required field left out is a malformed input, refused before any subject sees it.
  const classes = new Set<BoundaryClass>(required ? ["null"] : ["absent", "null"]);
  if (admits("string") || admits("array") || admits("object")) classes.add("empty");
  if (!fixed && isNumeric(types)) {
    for (const numeric of ["zero", "negative", "fractional"] as const) classes.add(numeric);
    if (numericDefault(schema) !== undefined) classes.add("above-default");
  }
  if (admits("string")) classes.add("non-ascii");
  if (types !== undefined) classes.add("wrong-type");
  return boundaryClasses.filter((name) => classes.has(name));
}

/** A `${...}` string: its value is known only when the scenario runs, so it is in no class. */
export const isVariableReference = (value: unknown) => typeof value === "string" && value.includes("${");

const NON_ASCII = /[\u0080-\u{10ffff}]/u;

/**
 * The classes a `${...}` string is in whatever its references expand to: `non-ascii` when its own text
 * (outside every reference) holds such a character, as in `${llm.url}/é/v1`; nothing else (emptiness,
 * type) is known before the run.
 */
function templateClasses(template: string): BoundaryClass[] {
  return NON_ASCII.test(template.replace(/\$\{[^}]*\}/g, "")) ? ["non-ascii"] : [];
}

/**
 * The classes one value given to a field falls in (none for an ordinary value): `undefined` is the
 * field left out. A fractional number given to an integer field is `fractional`, not `wrong-type`: it
 * is the boundary the integer type draws.
 */
export function classify(value: unknown, schema: FieldSchema): BoundaryClass[] {
  if (value === undefined) return ["absent"];
  if (value === null) return ["null"];
  if (isVariableReference(value)) return templateClasses(value as string);
  const types = schemaTypes(schema);
  if (schema.enum) return schema.enum.some((allowed) => JSON.stringify(allowed) === JSON.stringify(value)) ? [] : ["wrong-type"];
  const type = jsonType(value);
  const fitsType = types === undefined || types.has(type) || (type === "integer" && types.has("number"));
  const fractionalForInteger = type === "number" && types?.has("integer") === true;
  if (!fitsType && !fractionalForInteger) return ["wrong-type"];
  const classes: BoundaryClass[] = [];
  if (typeof value === "string") {
    if (value === "") classes.push("empty");
    if (NON_ASCII.test(value)) classes.push("non-ascii");
  } else if (Array.isArray(value)) {
    if (value.length === 0) classes.push("empty");
  } else if (typeof value === "object") {
    if (Object.keys(value).length === 0) classes.push("empty");
  } else if (typeof value === "number") {
    if (value === 0) classes.push("zero");
    if (value < 0) classes.push("negative");
    if (!Number.isInteger(value)) classes.push("fractional");
    const fallback = numericDefault(schema);
    if (fallback !== undefined && value === fallback + 1) classes.push("above-default");
  }
  return classes;
}
