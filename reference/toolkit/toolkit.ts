// The Toolkit: the tools of every source in one deterministic list, with execute and the adapters
// (SPEC.md toolkit.*).
import { consoleLogger, type ExtraTool, type Logger, type McpServerStatus, type Tool, type ToolResult, type ToolSet } from "../types.ts";
import { toAnthropic, toGemini, toOpenAI } from "./adapters.ts";

export interface ToolkitOptions {
  extraTools?: ExtraTool[];
  /** Exposed names to drop after all sources are loaded. */
  disableTools?: string[];
  logger?: Logger;
}

export interface Toolkit extends ToolSet {
  get(name: string): Tool | undefined;
  mcpStatus(): Record<string, McpServerStatus>;
  toGemini(): ReturnType<typeof toGemini>;
  close(): Promise<void>;
}

export function nativeTool(extra: ExtraTool): Tool {
  return {
    name: extra.name,
    description: extra.description ?? "",
    inputSchema: extra.inputSchema ?? { type: "object", properties: {} },
    source: "native",
    execute: async (args, context) => extra.execute(args, context),
  };
}

/** Assemble a toolkit from already-loaded tools; `onClose` releases what the sources hold. */
export function assembleToolkit(
  sources: Tool[][],
  options: ToolkitOptions & { status?: Record<string, McpServerStatus>; onClose?: () => Promise<void> },
): Toolkit {
  const logger = options.logger ?? consoleLogger;
  const disabled = new Set(options.disableTools ?? []);
  const byName = new Map<string, Tool>();
  for (const tool of sources.flat()) {
    if (disabled.has(tool.name)) continue;
    // Duplicates: the first source wins, so MCP tools cannot be shadowed by later sources by accident.
    if (byName.has(tool.name)) {
      logger.warn(`duplicate tool name "${tool.name}": keeping the first one`);
      continue;
    }
    byName.set(tool.name, tool);
  }
  const tools = [...byName.values()];
  return {
    tools: () => [...tools],
    get: (name) => byName.get(name),
    async execute(name, args, context): Promise<ToolResult> {
      const tool = byName.get(name);
      if (!tool) return { output: `Unknown tool: ${name}`, isError: true };
      try {
        return await tool.execute(args ?? {}, context);
      } catch (error) {
        return { output: error instanceof Error ? error.message : String(error), isError: true };
      }
    },
    mcpStatus: () => ({ ...(options.status ?? {}) }),
    toOpenAI: () => toOpenAI(tools),
    toAnthropic: () => toAnthropic(tools),
    toGemini: () => toGemini(tools),
    // A second close does nothing (SPEC toolkit.close, decision 43): what onClose releases is released
    // once (the MCP source memoizes its close, reference/mcp/load.ts), so no flag of its own.
    async close() {
      await options.onClose?.();
    },
  };
}
