// What lint knows, before anything runs, about the value an assertion's `at` points at: the step
// result `{value, error, elapsedMs}` with each operation's value as runners/protocol/outputs.schema.json
// defines it (the schema the protocol client checks every result against), a fixture kind's snapshot
// (its `snapshotSchema`), and what a capture took from either. A part nobody declared stays unknown,
// and its matcher is checked when the scenario runs.
// test/conformance/scenario/operand-types.test.ts checks these shapes against what the reference returns.
import { createRequire } from "node:module";
import { isDeepStrictEqual } from "node:util";
import { operationNames, outputSchema } from "../../runners/protocol/protocol.ts";
import { isRecord, pointerToPath } from "../common/json.ts";

const require = createRequire(import.meta.url);
const protocolSchema = require("../../runners/protocol/protocol.schema.json");
const outputsSchema = require("../../runners/protocol/outputs.schema.json");

/** A JSON Schema, of which lint reads `type`, `enum`, `const`, `properties`, `additionalProperties`, `items` and `oneOf`/`anyOf`. */
export type Shape = Record<string, unknown>;

/** `shape` with every local `$ref` ("#/$defs/name") replaced by what it names (these schemas do not recurse). */
function inlineRefs(shape: unknown, defs: Record<string, Shape>): unknown {
  if (Array.isArray(shape)) return shape.map((item) => inlineRefs(item, defs));
  if (!shape || typeof shape !== "object") return shape;
  const { $ref, ...rest } = shape as Shape;
  const named = typeof $ref === "string" ? (inlineRefs(defs[$ref.replace("#/$defs/", "")], defs) as Shape) : {};
  const own = Object.fromEntries(
    Object.entries(rest).map(([key, value]) => [key, key === "enum" || key === "const" ? value : inlineRefs(value, defs)]),
  );
  return { ...named, ...own };
}

/** Each operation's `value`, from its output schema. */
export const operationValueShapes: Record<string, Shape> = Object.fromEntries(
  operationNames.map((op) => [op, inlineRefs(outputSchema(op), outputsSchema.$defs) as Shape]),
);

const operationError = inlineRefs(protocolSchema.$defs.operationError, protocolSchema.$defs) as Shape;
const anything: Shape = {};

/**
 * The step result of an operation, or of one of several (a matrix variable's: `${path.op}`); `ops`
 * undefined: a fixture step, or a step without an op, whose value is `{}`.
 */
export function stepResultShape(ops: readonly string[] | undefined): Shape {
  const value =
    ops === undefined
      ? { type: "object", properties: {}, required: [] }
      : eitherValue(ops.map((op) => operationValueShapes[op] ?? anything));
  return { type: "object", properties: { value, error: operationError, elapsedMs: { type: "number" } }, required: [] };
}

/**
 * The value of one of several operations: each key any of them declares, where those declaring it
 * declare the same shape (client.stream's events, beside the text both client.run and client.stream
 * return); any other key is undeclared, left to the run. Not objects with properties: undeclared.
 */
/** A shape without its `description`s, which say the same thing differently. */
const undescribed = (shape: Shape): unknown =>
  JSON.parse(JSON.stringify(shape, (key, value) => (key === "description" && typeof value === "string" ? undefined : value)));

function eitherValue(shapes: Shape[]): Shape {
  if (shapes.length === 1) return shapes[0];
  const objects = shapes.filter((shape) => typesOf(shape)?.size === 1 && typesOf(shape)!.has("object") && isRecord(shape.properties));
  if (!shapes.length || objects.length !== shapes.length) return anything;
  const properties: Record<string, Shape> = {};
  for (const key of new Set(objects.flatMap((shape) => Object.keys(shape.properties as object)))) {
    const declaring = objects.map((shape) => (shape.properties as Record<string, Shape>)[key]).filter((property) => property !== undefined);
    if (declaring.every((property) => isDeepStrictEqual(undescribed(property), undescribed(declaring[0])))) properties[key] = declaring[0];
  }
  return {
    type: "object",
    properties,
    ...(objects.every((shape) => shape.additionalProperties === false) ? { additionalProperties: false } : {}),
  };
}

/** The declared shape at a JSON Pointer inside `shape`, or undefined when nothing declares it. */
export function shapeAt(shape: Shape | undefined, pointer: string): Shape | undefined {
  return shapeAtPath(shape, pointerToPath(pointer));
}

function shapeAtPath(shape: Shape | undefined, path: (string | number)[]): Shape | undefined {
  let node = shape;
  for (const [index, key] of path.entries()) {
    if (!node) return undefined;
    const branches = alternatives(node);
    // One of several shapes (a stream event): known there only where every branch declares it.
    if (branches) {
      const found = branches.map((branch) => shapeAtPath(branch, path.slice(index)));
      return found.every((branchShape): branchShape is Shape => branchShape !== undefined) ? { anyOf: found } : undefined;
    }
    const types = typesOf(node);
    if (types?.has("array") && typeof key === "number") node = node.items as Shape | undefined;
    else if (types?.has("object") || node.properties) {
      const properties = (node.properties ?? {}) as Record<string, Shape>;
      node = Object.prototype.hasOwnProperty.call(properties, key)
        ? properties[key]
        : typeof node.additionalProperties === "object"
          ? (node.additionalProperties as Shape)
          : undefined;
    } else return undefined;
  }
  return node;
}

function alternatives(shape: Shape): Shape[] | undefined {
  const branches = shape.oneOf ?? shape.anyOf;
  return Array.isArray(branches) && shape.type === undefined && shape.properties === undefined ? (branches as Shape[]) : undefined;
}

/** The JSON types a shape allows ("integer" counts as "number"), or undefined when it allows any. */
export function typesOf(shape: Shape | undefined): Set<string> | undefined {
  if (!shape) return undefined;
  if (Array.isArray(shape.enum)) return new Set(shape.enum.map(jsonType));
  if ("const" in shape) return new Set([jsonType(shape.const)]);
  const branches = alternatives(shape);
  if (branches) {
    const each = branches.map(typesOf);
    return each.every((types): types is Set<string> => types !== undefined) ? new Set(each.flatMap((types) => [...types])) : undefined;
  }
  const declared = shape.type;
  if (declared === undefined) return undefined;
  return new Set((Array.isArray(declared) ? declared : [declared]).map((type) => (type === "integer" ? "number" : String(type))));
}

export function jsonType(value: unknown): string {
  if (value === null) return "null";
  if (Array.isArray(value)) return "array";
  return typeof value;
}

/** "a list of strings", "an object", "a number or null": for messages. */
export function describeShape(shape: Shape | undefined): string {
  const types = typesOf(shape);
  if (!types) return "a value of any type";
  const names = [...types].map((type) => {
    if (type === "array") {
      const items = typesOf(shape?.items as Shape | undefined);
      return items ? `a list of ${[...items].map((item) => (item === "array" ? "lists" : `${item}s`)).join(" or ")}` : "a list";
    }
    return type === "object" || type === "array" ? `an ${type}` : type === "null" ? "null" : `a ${type}`;
  });
  return names.join(" or ");
}
