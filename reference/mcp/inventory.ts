// listMcpTools: the list-only inventory (SPEC.md 2.7, ADR gap 6). Original names, schemas normalized as
// the toolkit exposes them, UNFILTERED by the `tools` map (it exists to author those maps), and every
// connection closed before it returns.
import { consoleLogger, type JsonSchema, type Logger, type McpServerStatus } from "../types.ts";
import { resolveMcpConfig, type McpConfigInput } from "./config.ts";
import { normalizeSchema } from "./naming.ts";
import { closeOutcomes, openServers } from "./open.ts";

export interface ToolInfo {
  name: string;
  description: string;
  inputSchema: JsonSchema;
}

export interface McpInventory {
  /** Connected servers only: failed and disabled servers have no entry. */
  tools: Record<string, ToolInfo[]>;
  status: Record<string, McpServerStatus>;
}

export async function listMcpTools(input: McpConfigInput, options: { signal?: AbortSignal; logger?: Logger } = {}): Promise<McpInventory> {
  const config = resolveMcpConfig(input);
  const outcomes = await openServers(config, { signal: options.signal, logger: options.logger ?? consoleLogger });
  // Teardown before returning (mcp.inventory.teardown): the inventory holds nothing afterwards.
  await closeOutcomes(outcomes, false);
  const inventory: McpInventory = { tools: {}, status: {} };
  for (const outcome of outcomes) {
    inventory.status[outcome.server.name] = outcome.status;
    if (outcome.listed) {
      inventory.tools[outcome.server.name] = outcome.listed.map((tool) => ({
        name: tool.name,
        description: tool.description ?? "",
        // The schema the toolkit would expose (mcp.inventory.original-names): every port does so.
        inputSchema: normalizeSchema(tool.inputSchema),
      }));
    }
  }
  return inventory;
}
