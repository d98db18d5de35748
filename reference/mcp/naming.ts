// Exposed names and exposed schemas of MCP tools (SPEC.md mcp.naming.prefix, mcp.schema.normalize).
import type { JsonSchema } from "../types.ts";

/** Replace every character outside [a-zA-Z0-9_-] with "_". No truncation: names stay comparable across ports. */
export function sanitize(name: string): string {
  return name.replace(/[^a-zA-Z0-9_-]/g, "_");
}

export function exposedName(server: string, tool: string): string {
  return `${sanitize(server)}_${sanitize(tool)}`;
}

/**
 * The schema the LLM sees: the server's own, with `type: "object"` forced, `properties` defaulted and
 * `additionalProperties: false` (providers refuse or misread tool schemas without these).
 */
export function normalizeSchema(schema: unknown): JsonSchema {
  const base = typeof schema === "object" && schema !== null && !Array.isArray(schema) ? (schema as JsonSchema) : {};
  return { ...base, type: "object", properties: base.properties ?? {}, additionalProperties: false };
}
