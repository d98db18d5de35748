// loadMcp: the MCP source of a toolkit (SPEC.md 2): connected servers' tools, filtered by each server's
// `tools` map, named server_tool, schemas normalized, executed over the server's connection.
import { consoleLogger, type Logger, type McpServerStatus, type Tool, type WaitFor } from "../types.ts";
import { resolveMcpConfig, type McpConfigInput } from "./config.ts";
import { callMcpTool } from "./execute.ts";
import { filterTools } from "./filter.ts";
import { exposedName, normalizeSchema } from "./naming.ts";
import { closeOutcomes, openServers, redactor } from "./open.ts";

export interface LoadMcpOptions {
  signal?: AbortSignal;
  logger?: Logger;
  /** Answers the servers' elicitations (mcp.elicitation.*); without it none is advertised. */
  waitFor?: WaitFor;
}

export interface McpSource {
  /** Servers in config order, each server's tools in its list order (toolkit.order). */
  tools: Tool[];
  status: Record<string, McpServerStatus>;
  /** Names of the servers this source holds open. */
  connected: string[];
  /** Disconnect every server; bounded, idempotent. */
  close(): Promise<void>;
}

export async function loadMcp(input: McpConfigInput, options: LoadMcpOptions = {}): Promise<McpSource> {
  const logger = options.logger ?? consoleLogger;
  const config = resolveMcpConfig(input);
  const outcomes = await openServers(config, { signal: options.signal, logger, waitFor: options.waitFor });
  const redact = redactor(config);
  const tools: Tool[] = [];
  const status: Record<string, McpServerStatus> = {};
  const unmatched: string[] = [];
  for (const outcome of outcomes) {
    status[outcome.server.name] = outcome.status;
    const { connection, listed } = outcome;
    if (!connection || !listed) continue;
    // Filter on original names, before the prefix (mcp.allowlist.original-names).
    const { kept, unknown } = filterTools(listed, outcome.server.tools);
    if (unknown.length > 0) unmatched.push(`server "${outcome.server.name}": ${unknown.join(", ")}`);
    for (const listedTool of kept) {
      tools.push({
        name: exposedName(outcome.server.name, listedTool.name),
        description: listedTool.description ?? "",
        inputSchema: normalizeSchema(listedTool.inputSchema),
        source: "mcp",
        execute: (args, context) => callMcpTool(connection, listedTool.name, args, context),
      });
    }
  }
  // One warning for the whole load, naming every server's unmatched names (mcp.allowlist.unknown).
  if (unmatched.length > 0) logger.warn(redact(`MCP tools entries matched no tool and were ignored: ${unmatched.join("; ")}`));
  let closing: Promise<void> | undefined;
  return {
    tools,
    status,
    connected: outcomes.filter((outcome) => outcome.status === "connected").map((outcome) => outcome.server.name),
    close: () => (closing ??= closeOutcomes(outcomes, false)),
  };
}
