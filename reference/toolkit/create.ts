// createToolkit: load every source, then assemble (SPEC.md toolkit.order): MCP servers first, in config
// order, then the host's extra tools.
import { loadMcp, type McpSource } from "../mcp/load.ts";
import type { McpConfigInput } from "../mcp/config.ts";
import { throwIfCancelled } from "../mcp/errors.ts";
import { consoleLogger, type WaitFor } from "../types.ts";
import { registerOpenToolkit, unregisterOpenToolkit } from "./introspection.ts";
import { assembleToolkit, nativeTool, type Toolkit, type ToolkitOptions } from "./toolkit.ts";

export interface CreateToolkitOptions extends ToolkitOptions {
  /** An MCP config object, or the path of a JSON file holding one (mcp.config.file). */
  mcpConfig?: McpConfigInput;
  /** The caller's cancellation/deadline; it reaches every phase of the MCP load (mcp.cancel.propagates). */
  signal?: AbortSignal;
  /** The host's resolver, given to the MCP source for its servers' elicitations (mcp.elicitation.*). */
  waitFor?: WaitFor;
}

export async function createToolkit(options: CreateToolkitOptions = {}): Promise<Toolkit> {
  throwIfCancelled(options.signal);
  const logger = options.logger ?? consoleLogger;
  const mcp: McpSource | undefined =
    options.mcpConfig === undefined
      ? undefined
      : await loadMcp(options.mcpConfig, { signal: options.signal, logger, waitFor: options.waitFor });
  const extra = (options.extraTools ?? []).map(nativeTool);
  const token = {};
  const toolkit = assembleToolkit([mcp?.tools ?? [], extra], {
    ...options,
    logger,
    status: mcp?.status,
    onClose: async () => {
      unregisterOpenToolkit(token);
      await mcp?.close();
    },
  });
  registerOpenToolkit(token, mcp?.connected ?? []);
  return toolkit;
}
