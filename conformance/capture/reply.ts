// What import reads as the upstream's reply ({text, toolCalls, usage}: fixtures/llm-mock/README.md),
// through the one wire parser the recording proxy uses too (wire-reply.ts): from a response body
// (JSON, or SSE events accumulated) or from the assistant message the client echoed in its next
// request (what the replay must make it echo again: read as the body of a JSON answer).
import type { ScriptedReply } from "../../fixtures/llm-mock/script.ts";
import type { Style } from "./client-body.ts";
import { looksLikeSse, replyFromWire } from "./wire-reply.ts";

export { looksLikeSse };

export interface MockReply {
  text?: string;
  toolCalls?: { id: string; name: string; args: Record<string, unknown> }[];
  usage?: { input: number; output: number };
}

/**
 * The reply as the client echoes it: text, tool calls, usage. Empty text beside tool calls is dropped:
 * the mock then sends null content beside the calls, as providers do and as the client echoes.
 */
function echoed({ text, toolCalls, usage }: Pick<ScriptedReply, "text" | "toolCalls" | "usage">): MockReply {
  const calls = toolCalls?.map(({ id, name, args }) => ({ id, name, args: args ?? {} }));
  return {
    ...(text !== undefined && (text !== "" || !calls?.length) ? { text } : !calls?.length ? { text: "" } : {}),
    ...(calls?.length ? { toolCalls: calls } : {}),
    ...(usage ? { usage } : {}),
  };
}

/** The reply an assistant message stands for (openai message, or anthropic content blocks). */
export function replyFromAssistant(style: Style, message: Record<string, unknown>): MockReply {
  const content =
    style === "anthropic" && !Array.isArray(message.content) ? [{ type: "text", text: String(message.content ?? "") }] : message.content;
  const body = style === "openai" ? { choices: [{ message }] } : { content };
  const { usage: _none, ...reply } = replyFromWire(style, {
    status: 200,
    headers: { "content-type": "application/json" },
    text: JSON.stringify(body),
  }).reply;
  return echoed(reply);
}

/** The reply a response body holds, or undefined when it is neither the style's JSON nor its SSE. */
export function replyFromResponse(style: Style, text: string, contentType?: string): MockReply | undefined {
  const { reply, sseEvents } = replyFromWire(style, { status: 200, headers: contentType ? { "content-type": contentType } : {}, text });
  // Not the style's answer: SSE without one JSON event; JSON that is no object, or holds no message (openai) or content list (anthropic).
  if (sseEvents === 0 || (sseEvents === undefined && (reply.fault === "malformed-sse" || reply.fault === "empty"))) return undefined;
  return echoed(reply);
}
