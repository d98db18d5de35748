// Core types of the toolnexus contract (SPEC.md "Core types"), shared by the client, the MCP
// source and the toolkit.

export type JsonSchema = Record<string, unknown>;

export interface ToolResult {
  output: string;
  isError: boolean;
  metadata?: Record<string, unknown>;
}

export type ToolSource = "mcp" | "native";

/**
 * What a suspended tool asks for (SPEC client.suspension.request): a result whose `metadata.pending` is
 * one suspends. Its keys are wire data, the same in every port, never re-cased. (A type, not an interface:
 * it is plain data, assignable wherever JSON objects are.)
 */
export type Request = {
  id: string;
  kind: string;
  prompt: string;
  url?: string;
  data?: Record<string, unknown>;
  expiresAt?: string;
};

/** A waitFor's resolution of a Request (SPEC client.suspension.request); `id` echoes the request's. */
export type Answer = {
  id: string;
  ok: boolean;
  data?: Record<string, unknown>;
  /** Why, when `ok` is false (advisory: the loop branches on `ok` alone). */
  reason?: string;
};

/**
 * What a caller may hand an execute: its cancellation (an MCP tool's tools/call honours it,
 * mcp.execute.timeout) and, on the retry after a waitFor, the Answer (client.suspension.wait-for).
 */
export interface ToolContext {
  signal?: AbortSignal;
  answer?: Answer;
}

export interface Tool {
  /** The exposed name (for MCP tools: sanitized server + "_" + sanitized original name). */
  name: string;
  description: string;
  inputSchema: JsonSchema;
  source: ToolSource;
  execute(args: Record<string, unknown>, context?: ToolContext): Promise<ToolResult>;
}

/** A host-defined tool given to createToolkit({extraTools}). */
export interface ExtraTool {
  name: string;
  description?: string;
  inputSchema?: JsonSchema;
  execute(args: Record<string, unknown>, context?: ToolContext): Promise<ToolResult> | ToolResult;
}

export interface OpenAITool {
  type: "function";
  function: { name: string; description: string; parameters: JsonSchema };
}

export interface AnthropicTool {
  name: string;
  description: string;
  input_schema: JsonSchema;
}

export type GeminiTools = [{ functionDeclarations: { name: string; description: string; parameters: JsonSchema }[] }];

export type McpServerStatus = "connected" | "disabled" | "failed";

/** What the client needs of a toolkit: anything with these methods will do. */
export interface ToolSet {
  tools(): Tool[];
  execute(name: string, args: Record<string, unknown>, context?: ToolContext): Promise<ToolResult>;
  toOpenAI(): OpenAITool[];
  toAnthropic(): AnthropicTool[];
}

/** Where warnings go (a refused requestParams key, an allowlist name that matched nothing). */
export interface Logger {
  warn(message: string): void;
}

export const consoleLogger: Logger = { warn: (message) => console.warn(`[toolnexus] ${message}`) };

/** The host's one slot (SPEC client.suspension.wait-for, mcp.elicitation.*): resolves a Request out of band and answers it; data in, data out. */
export type WaitFor = (request: Request) => Promise<Answer> | Answer;
