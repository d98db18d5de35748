// What lint knows, before anything runs, about the value an assertion's `at` points at: the step
// result `{value, error, elapsedMs}` with each operation's value as runners/PROTOCOL.md "Operations"
// declares it, a fixture kind's snapshot (its `snapshotSchema`), and what a capture took from either.
// A part nobody declared stays unknown, and its matcher is checked when the scenario runs.
// test/harness/operand-types.test.ts checks these shapes against what the reference returns.
import { createRequire } from "node:module";
import { pointerToPath } from "./validate.ts";

const require = createRequire(import.meta.url);
const protocolSchema = require("../../runners/protocol/protocol.schema.json");

/** A JSON Schema, of which lint reads `type`, `enum`, `properties`, `additionalProperties` and `items`. */
export type Shape = Record<string, unknown>;

const text: Shape = { type: "string" };
const number: Shape = { type: "number" };
const boolean: Shape = { type: "boolean" };
const anything: Shape = {};
const object = (properties: Record<string, Shape>, required: string[] = Object.keys(properties)): Shape => ({ type: "object", properties, required });
const list = (items: Shape): Shape => ({ type: "array", items });
const mapOf = (values: Shape): Shape => ({ type: "object", additionalProperties: values });
const serverStatus: Shape = { enum: ["connected", "disabled", "failed"] };
const toolInfo = object({ name: text, description: text, inputSchema: { type: "object" } });
const runResult = { text, usage: object({ input: number, output: number }), messages: list({ type: "object" }) };
const event = object({ type: { enum: ["text", "tool_call", "tool_result", "usage", "done"] } });

/** Each operation's `value`, as runners/PROTOCOL.md declares it. */
export const operationValueShapes: Record<string, Shape> = {
  "session.reset": object({}),
  "runner.echo": object({ value: anything }),
  "client.create": object({}),
  "client.run": object(runResult, ["text", "usage"]),
  "client.ask": object(runResult, ["text", "usage"]),
  "client.stream": object({ ...runResult, events: list(event) }, ["text", "usage", "events"]),
  "client.observations": object({
    transformInputs: list({ type: "object" }),
    hookCalls: list(object({ hook: text, input: { type: "object" } })),
    warnings: list(text),
    transportRequests: list(object({ method: text, url: text, body: anything })),
    storeAccessor: { enum: ["provided", "default", "missing"] },
  }),
  "store.get": object({ messages: { type: ["array", "null"], items: { type: "object" } } }),
  "store.save": object({}),
  "toolkit.create": object({ tools: list(text), status: mapOf(serverStatus) }),
  "toolkit.tools": object({ tools: list(toolInfo) }),
  "toolkit.execute": object({ output: text, isError: boolean }),
  "toolkit.adapter": object({ value: anything }),
  "toolkit.status": object({ status: mapOf(serverStatus) }),
  "toolkit.warnings": object({ warnings: list(text) }),
  "toolkit.close": object({}),
  "toolkit.introspect": object({ open: number, servers: list(text) }),
  "mcp.list": object({ tools: mapOf(list(toolInfo)), status: mapOf(serverStatus) }),
  "mcp.parse": object({
    servers: mapOf(object({ type: { enum: ["local", "remote"] }, enabled: boolean, timeout: number, tools: mapOf(boolean) }, ["type", "enabled"])),
  }),
};

/** The step result of an operation (`op` undefined: a fixture step, whose value is `{}`). `${path.op}` is run or stream: stream's shape holds both. */
export function stepResultShape(op: string | undefined): Shape {
  const value = op === undefined ? object({}) : operationValueShapes[op === "${path.op}" ? "client.stream" : op] ?? anything;
  return object({ value, error: protocolSchema.$defs.operationError, elapsedMs: number }, []);
}

/** The declared shape at a JSON Pointer inside `shape`, or undefined when nothing declares it. */
export function shapeAt(shape: Shape | undefined, pointer: string): Shape | undefined {
  let node = shape;
  for (const key of pointerToPath(pointer)) {
    if (!node) return undefined;
    const types = typesOf(node);
    if (types?.has("array") && typeof key === "number") node = node.items as Shape | undefined;
    else if (types?.has("object") || node.properties) {
      const properties = (node.properties ?? {}) as Record<string, Shape>;
      node = Object.prototype.hasOwnProperty.call(properties, key) ? properties[key] : typeof node.additionalProperties === "object" ? (node.additionalProperties as Shape) : undefined;
    } else return undefined;
  }
  return node;
}

/** The JSON types a shape allows ("integer" counts as "number"), or undefined when it allows any. */
export function typesOf(shape: Shape | undefined): Set<string> | undefined {
  if (!shape) return undefined;
  if (Array.isArray(shape.enum)) return new Set(shape.enum.map(jsonType));
  if ("const" in shape) return new Set([jsonType(shape.const)]);
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
