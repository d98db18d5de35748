// Executing an MCP tool (SPEC.md 2.4): tools/call with the ORIGINAL name, the result flattened to the
// toolnexus ToolResult. Never throws: a failed call is an error result (core.tool-result).
import type { ToolContext, ToolResult } from "../types.ts";
import { message, type McpConnection } from "./connect.ts";

interface ContentPart {
  type: string;
  text?: string;
}

export async function callMcpTool(
  connection: McpConnection,
  originalName: string,
  args: Record<string, unknown> | undefined,
  context: ToolContext = {},
): Promise<ToolResult> {
  const metadata = { server: connection.server.name };
  try {
    // Bounded by the server's timeout (mcp.execute.timeout), restarted by each progress notification
    // (a no-op onprogress makes the SDK send a progressToken, without which no server can report
    // progress); the caller's signal cancels it. Either way the SDK tells the server (notifications/cancelled).
    const result = await connection.client.callTool({ name: originalName, arguments: args ?? {} }, undefined, {
      timeout: connection.server.timeout,
      resetTimeoutOnProgress: true,
      onprogress: () => undefined,
      signal: context.signal,
    });
    return { ...flattenResult(result), metadata };
  } catch (error) {
    return { output: message(error), isError: true, metadata };
  }
}

// What an error result with no non-blank text part says (every port's wording: mcp.execute.is-error).
const NO_ERROR_TEXT = "MCP tool returned an error";

/**
 * isError first (its non-blank texts joined by a blank line), then structuredContent as JSON, else texts
 * joined by "\n". Texts pass through as the server sent them: their bytes are the contract (core.text-bytes).
 */
export function flattenResult(result: Record<string, unknown>): ToolResult {
  const content = Array.isArray(result.content) ? (result.content as ContentPart[]) : [];
  const texts = content.filter((part) => part.type === "text" && typeof part.text === "string").map((part) => part.text as string);
  if (result.isError === true) {
    const said = texts.filter((text) => text.trim() !== "");
    return { output: said.length > 0 ? said.join("\n\n") : NO_ERROR_TEXT, isError: true };
  }
  if (result.structuredContent !== undefined && result.structuredContent !== null) {
    return { output: JSON.stringify(result.structuredContent), isError: false };
  }
  return { output: texts.join("\n"), isError: false };
}
