// The three provider shapes of a tool list (SPEC.md toolkit.adapter.*).
import type { AnthropicTool, GeminiTools, OpenAITool, Tool } from "../types.ts";

export function toOpenAI(tools: Tool[]): OpenAITool[] {
  return tools.map((tool) => ({
    type: "function",
    function: { name: tool.name, description: tool.description, parameters: tool.inputSchema },
  }));
}

export function toAnthropic(tools: Tool[]): AnthropicTool[] {
  return tools.map((tool) => ({ name: tool.name, description: tool.description, input_schema: tool.inputSchema }));
}

export function toGemini(tools: Tool[]): GeminiTools {
  return [
    {
      functionDeclarations: tools.map((tool) => ({
        name: tool.name,
        description: tool.description,
        parameters: tool.inputSchema,
      })),
    },
  ];
}
