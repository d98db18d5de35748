// toolkit.* and mcp.* operations on the reference (runners/PROTOCOL.md#operations).
import { createToolkit, type Toolkit } from "../../../reference/index.ts";
import type { ExtraTool } from "../../../reference/types.ts";
import { ContractError, requireHandle, type OpHandler } from "./driver.ts";

interface ToolkitEntry {
  toolkit: Toolkit;
  warnings: string[];
}

interface ExtraToolData {
  name: string;
  description?: string;
  inputSchema?: Record<string, unknown>;
  result?: { output: string; isError: boolean };
}

function extraToolFromData(data: ExtraToolData): ExtraTool {
  return {
    name: data.name,
    description: data.description,
    inputSchema: data.inputSchema,
    execute: (args) => data.result ?? { output: JSON.stringify(args), isError: false },
  };
}

const entry = (session: Parameters<OpHandler>[1], input: Record<string, unknown>) =>
  requireHandle<ToolkitEntry>(session.toolkits, input.toolkit, "toolkit");

export const toolkitOps: Record<string, OpHandler> = {
  async "toolkit.create"(input, session) {
    const handle = String(input.handle);
    if (session.toolkits.has(handle)) throw new ContractError("other", `toolkit "${handle}" already exists`);
    const warnings: string[] = [];
    const toolkit = await createToolkit({
      extraTools: ((input.extraTools as ExtraToolData[] | undefined) ?? []).map(extraToolFromData),
      disableTools: input.disableTools as string[] | undefined,
      logger: { warn: (message) => warnings.push(message) },
    });
    session.toolkits.set(handle, { toolkit, warnings } satisfies ToolkitEntry);
    session.cleanups.push(() => toolkit.close());
    return { tools: toolkit.tools().map((tool) => tool.name), status: toolkit.mcpStatus() };
  },
  async "toolkit.tools"(input, session) {
    const tools = entry(session, input).toolkit.tools();
    return { tools: tools.map(({ name, description, inputSchema }) => ({ name, description, inputSchema })) };
  },
  async "toolkit.execute"(input, session) {
    const result = await entry(session, input).toolkit.execute(String(input.name), (input.args ?? {}) as Record<string, unknown>);
    return { output: result.output, isError: result.isError };
  },
  async "toolkit.adapter"(input, session) {
    const { toolkit } = entry(session, input);
    const format = String(input.format);
    if (format === "openai") return { value: toolkit.toOpenAI() };
    if (format === "anthropic") return { value: toolkit.toAnthropic() };
    if (format === "gemini") return { value: toolkit.toGemini() };
    throw new ContractError("other", `unknown adapter format "${format}"`);
  },
  async "toolkit.status"(input, session) {
    return { status: entry(session, input).toolkit.mcpStatus() };
  },
  async "toolkit.warnings"(input, session) {
    return { warnings: [...entry(session, input).warnings] };
  },
  async "toolkit.close"(input, session) {
    await entry(session, input).toolkit.close();
    return {};
  },
};

/** The reference toolkit behind a handle, for client operations that take `toolkit`. */
export function toolkitFor(session: Parameters<OpHandler>[1], name: unknown): Toolkit {
  return requireHandle<ToolkitEntry>(session.toolkits, name, "toolkit").toolkit;
}
