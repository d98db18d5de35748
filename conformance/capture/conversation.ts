// When one LLM request continues another: the next turn of the same conversation (a tool loop). Import
// (derive.ts, chaining a file's calls) and the recording proxy (proxy-capture.ts, chaining as
// requests arrive) ask it the same way.
import { isDeepStrictEqual } from "node:util";
import { isRecord } from "../common/json.ts";
import type { Style } from "./client-body.ts";

export interface WireRequest {
  style: Style;
  body: Record<string, unknown>;
}

/** The request's messages (JSON objects only). */
export const messagesOf = (body: Record<string, unknown>): Record<string, unknown>[] =>
  Array.isArray(body.messages) ? body.messages.filter(isRecord) : [];

/**
 * What `next` adds when it continues `previous`: same style, model and mode, and `previous`'s messages
 * followed by at least two more, the first the assistant's answer (undefined otherwise).
 */
export function nextTurnOf(
  previous: WireRequest,
  next: WireRequest,
): { assistant: Record<string, unknown>; rest: Record<string, unknown>[] } | undefined {
  if (
    previous.style !== next.style ||
    previous.body.model !== next.body.model ||
    Boolean(previous.body.stream) !== Boolean(next.body.stream)
  )
    return undefined;
  const before = messagesOf(previous.body);
  const after = messagesOf(next.body);
  if (after.length < before.length + 2 || !before.every((message, index) => isDeepStrictEqual(message, after[index]))) return undefined;
  return { assistant: after[before.length]!, rest: after.slice(before.length + 1) };
}

/** The added messages answer the assistant's tool calls and say nothing else: a tool loop's next turn. */
export function answersToolCalls(style: Style, rest: Record<string, unknown>[]): boolean {
  if (style === "openai") return rest.length > 0 && rest.every((message) => message.role === "tool");
  return (
    rest.length === 1 &&
    rest[0]!.role === "user" &&
    Array.isArray(rest[0]!.content) &&
    rest[0]!.content.every((block: unknown) => isRecord(block) && block.type === "tool_result")
  );
}
