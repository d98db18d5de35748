// Executing an MCP tool (SPEC.md 2.4): tools/call with the ORIGINAL name, the result flattened to the
// toolnexus ToolResult. Never throws: a failed call is an error result (core.tool-result).
import type { ToolResult } from "../types.ts";
import { message, type McpConnection } from "./connect.ts";

interface ContentPart {
  type: string;
  text?: string;
}

export async function callMcpTool(connection: McpConnection, originalName: string, args: Record<string, unknown> | undefined): Promise<ToolResult> {
  const metadata = { server: connection.server.name };
  try {
    const result = await connection.client.callTool({ name: originalName, arguments: args ?? {} });
    return { ...flattenResult(result), metadata };
  } catch (error) {
    return { output: message(error), isError: true, metadata };
  }
}

/** isError first (texts joined by a blank line), then structuredContent as JSON, else texts joined by "\n". */
export function flattenResult(result: Record<string, unknown>): ToolResult {
  const content = Array.isArray(result.content) ? (result.content as ContentPart[]) : [];
  const texts = content.filter((part) => part.type === "text" && typeof part.text === "string").map((part) => part.text as string);
  if (result.isError === true) return { output: texts.join("\n\n"), isError: true };
  if (result.structuredContent !== undefined && result.structuredContent !== null) {
    return { output: JSON.stringify(result.structuredContent), isError: false };
  }
  return { output: texts.join("\n"), isError: false };
}
