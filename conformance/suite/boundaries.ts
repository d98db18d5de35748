// toolnexus's own rows of the boundary-value table (conformance/scenario/boundaries/): the keys of an
// MCP server entry and the scripted reply's timing and status keys of the mock LLM, with where its
// scenarios give them. The operations' fields come from runners/protocol, read generically.
import { join } from "node:path";
import { isRecord } from "../common/json.ts";
import { repoRoot } from "../common/paths.ts";
import type { ExpandedScenario } from "../scenario/expand.ts";
import type { BoundaryRecord, SuiteBoundaries } from "../scenario/boundaries/table.ts";
import type { FieldSchema } from "../scenario/boundaries/classes.ts";

/** SPEC.md 2.1: the keys of one server entry a port reads, with their types and the one default SPEC gives. */
const mcpServerFields: Record<string, FieldSchema> = {
  type: { enum: ["local", "remote"] },
  command: { type: ["array", "string"] },
  environment: { type: "object" },
  env: { type: "object" },
  cwd: { type: "string" },
  url: { type: "string" },
  headers: { type: "object" },
  timeout: { type: "number", default: 30000 },
  tools: { type: "object" },
  enabled: { type: "boolean" },
  disabled: { type: "boolean" },
};

/** fixtures/llm-mock/script.ts: what a scripted reply sets of the exchange's timing and status. */
const replyFields: Record<string, FieldSchema> = {
  status: { type: "integer" },
  retryAfter: { type: ["number", "string"] },
  delayMs: { type: "number" },
  chunkDelayMs: { type: "number" },
  chunkBytes: { type: "integer" },
};

/** The operation input keys that hold an MCP config. */
const configInputs: Record<string, string> = { "toolkit.create": "mcpConfig", "mcp.list": "config", "mcp.parse": "config" };
const wrappers = ["mcpServers", "servers", "mcp"];
const reservedTopLevel = new Set(["builtins", "agents", "a2a", "mcpServer"]);

/** The server entries of a config as written (SPEC mcp.config.wrappers); entries given as `${...}` are left to their fixture. */
function serverEntries(config: unknown): Record<string, unknown>[] {
  if (!isRecord(config) || "file" in config) return [];
  const wrapper = wrappers.find((key) => config[key] !== undefined && config[key] !== null);
  const servers = wrapper ? config[wrapper] : Object.fromEntries(Object.entries(config).filter(([key]) => !reservedTopLevel.has(key)));
  return isRecord(servers) ? Object.values(servers).filter(isRecord) : [];
}

function parseJson(text: unknown): unknown {
  try {
    return typeof text === "string" ? JSON.parse(text) : undefined;
  } catch {
    return undefined;
  }
}

function records(scenario: ExpandedScenario): BoundaryRecord[] {
  const found: BoundaryRecord[] = [];
  for (const fixture of Object.values(scenario.fixtures)) {
    const options = isRecord(fixture.options) ? fixture.options : {};
    // An MCP kind's `server` option: keys merged into the entry it publishes.
    if (fixture.kind.startsWith("mcp-") && isRecord(options.server))
      found.push({ group: "mcp-server", values: options.server, partial: true });
    if (fixture.kind === "config-file")
      for (const entry of serverEntries(parseJson(options.text))) found.push({ group: "mcp-server", values: entry });
  }
  for (const { step } of scenario.steps) {
    if ("op" in step) {
      const key = configInputs[step.op];
      if (key && isRecord(step.with)) for (const entry of serverEntries(step.with[key])) found.push({ group: "mcp-server", values: entry });
    } else if (step.action === "script" && scenario.fixtures[step.fixture]?.kind === "llm-mock") {
      for (const reply of Array.isArray(step.with) ? step.with : [step.with])
        if (isRecord(reply)) found.push({ group: "llm-mock.reply", values: reply });
    }
  }
  return found;
}

export const toolnexusBoundaries: SuiteBoundaries = {
  explanationsFile: join(repoRoot, "SPEC-BOUNDARIES.yaml"),
  groups: [
    { name: "mcp-server", fields: mcpServerFields },
    { name: "llm-mock.reply", fields: replyFields },
  ],
  records,
};
