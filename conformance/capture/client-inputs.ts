// What the client was given, read back from the first request of a conversation: the call's prompt,
// history and system prompt, and the toolkit's tools. Import (derive.ts) and the recording proxy
// (proxy-capture.ts) read them alike; they differ only in what they do when the prompt is no text.
import { isRecord } from "../common/json.ts";
import type { Style } from "./client-body.ts";
import { messagesOf } from "./conversation.ts";

export interface CallInputs {
  /** The last message's text when it is a user message with text content; undefined otherwise. */
  prompt?: string;
  history?: Record<string, unknown>[];
  systemPrompt?: string;
}

/** Prompt, history and system prompt (a non-text anthropic `system` is no systemPrompt: it stays a requestParam). */
export function callInputsOf(style: Style, body: Record<string, unknown>): CallInputs {
  const messages = messagesOf(body);
  const last = messages[messages.length - 1];
  const before = messages.slice(0, -1);
  let systemPrompt: string | undefined;
  let history: Record<string, unknown>[] | undefined;
  // openai: the client puts the system prompt first only in a new conversation; a history carries its own.
  if (style === "openai" && before.length === 1 && before[0]!.role === "system" && typeof before[0]!.content === "string")
    systemPrompt = before[0]!.content;
  else if (before.length) history = before;
  if (style === "anthropic" && typeof body.system === "string" && body.system !== "") systemPrompt = body.system;
  const prompt = last?.role === "user" && typeof last.content === "string" ? last.content : undefined;
  return { ...(prompt !== undefined ? { prompt } : {}), history, systemPrompt };
}

export interface WireTool {
  name: string;
  description?: string;
  inputSchema?: Record<string, unknown>;
}

/** The body's tools as the toolkit declared them (the client renders them back with reference/toolkit/adapters.ts). */
export function toolsOf(style: Style, body: Record<string, unknown>): WireTool[] {
  const list = Array.isArray(body.tools) ? body.tools.filter(isRecord) : [];
  return list.map((tool) => {
    const spec = style === "openai" ? (isRecord(tool.function) ? tool.function : {}) : tool;
    const schema = style === "openai" ? spec.parameters : spec.input_schema;
    return {
      name: String(spec.name ?? ""),
      ...(typeof spec.description === "string" ? { description: spec.description } : {}),
      ...(isRecord(schema) ? { inputSchema: schema } : {}),
    };
  });
}
