// What the recording proxy saw -> captures (conformance/schema/capture.schema.json). Calls of one
// tool loop (each request's messages extend the previous request's, after a reply with tool calls)
// become one multi-turn capture. The client inputs are derived from the wire: the style from the
// path, model, system prompt, prompt and history from the first body, requestParams as the top-level
// keys the reference's base body of that style would not have (or would have with another value;
// client-body.ts, the reference's own), the toolkit from `tools` with the results the client sent back.
import { isDeepStrictEqual } from "node:util";
import type { ScriptedReply } from "../../fixtures/llm-mock/script.ts";
import type { Capture, Request } from "../schema/capture.types.ts";
import { baseBody, bodyBeyondBase, RESERVED, type Style } from "./client-body.ts";
import { callInputsOf, toolsOf } from "./client-inputs.ts";
import { messagesOf, nextTurnOf } from "./conversation.ts";
import { isRecord } from "../common/json.ts";

export interface Turn {
  style: Style;
  stream: boolean;
  method: string;
  /** As requested, query included (redacted when written). */
  path: string;
  headers: Record<string, string>;
  raw: string;
  body: Record<string, unknown>;
  reply: ScriptedReply;
}

export interface Conversation {
  /** The capture id, e.g. captured/proxy/openai-run-0001. */
  id: string;
  turns: Turn[];
  /** sha256 over every turn's request and response bytes, as received. */
  originalSha256: string;
  capturedAt: string;
  /** Said in the log when the capture is written: what a replay will not reproduce. */
  caveats: string[];
}

/**
 * requestParams: what the base body would not have, or have otherwise, beside what the client derives
 * from the call itself (model, messages, tools, stream; anthropic's text `system`, its systemPrompt).
 */
export function deriveRequestParams(style: Style, body: Record<string, unknown>, caveats: string[]): Record<string, unknown> {
  const tools = Array.isArray(body.tools) ? body.tools : [];
  const base = baseBody(style, {
    model: String(body.model ?? ""),
    systemPrompt: "",
    messages: messagesOf(body),
    tools,
    stream: body.stream === true,
  });
  const owned = new Set(["model", ...RESERVED, ...(style === "anthropic" ? ["system"] : [])]);
  const { params, missing } = bodyBeyondBase(Object.fromEntries(Object.entries(body).filter(([key]) => !owned.has(key))), base);
  for (const key of missing.filter((key) => !owned.has(key)))
    caveats.push(`the body has no "${key}", which the client always sends: the replay will differ`);
  // anthropic: a system given as content blocks is not a systemPrompt; requestParams replace it.
  if (style === "anthropic" && body.system !== undefined && typeof body.system !== "string") params.system = body.system;
  return params;
}

/** prompt, history and systemPrompt from the first request (client-inputs.ts); a prompt that is no text is sent as its text blocks. */
function callOf(style: Style, body: Record<string, unknown>, caveats: string[]) {
  const { prompt, history, systemPrompt } = callInputsOf(style, body);
  if (prompt !== undefined) return { prompt, history, systemPrompt };
  caveats.push("the last message is not a user message with text content: the replay sends the prompt as text");
  const last = messagesOf(body).at(-1);
  const blocks = last?.role === "user" && Array.isArray(last.content) ? last.content.filter(isRecord) : undefined;
  return {
    prompt: blocks ? blocks.map((block) => (typeof block.text === "string" ? block.text : "")).join("") : "",
    history,
    systemPrompt,
  };
}

/** The tools of the first body as host tools, each with the result the client sent back for it. */
function toolkitOf(style: Style, turns: Turn[], caveats: string[]): Capture["toolkit"] {
  const tools = toolsOf(style, turns[0].body);
  if (!tools.length) return undefined;
  const results = new Map<string, { output: string; isError: boolean }>();
  const namesById = new Map<string, string>();
  for (const { reply } of turns) for (const call of reply.toolCalls ?? []) namesById.set(call.id, call.name);
  const seen = (name: string | undefined, result: { output: string; isError: boolean }) => {
    if (name === undefined) return;
    const before = results.get(name);
    if (before && !isDeepStrictEqual(before, result))
      caveats.push(`tool ${name} returned different results: the replay's host tool returns the first`);
    if (!before) results.set(name, result);
  };
  for (const turn of turns.slice(1)) {
    for (const message of messagesOf(turn.body)) {
      if (style === "openai" && message.role === "tool" && typeof message.content === "string") {
        seen(namesById.get(String(message.tool_call_id)), { output: message.content, isError: false });
      }
      if (style === "anthropic" && message.role === "user" && Array.isArray(message.content)) {
        for (const block of message.content.filter(isRecord)) {
          if (block.type === "tool_result" && typeof block.content === "string")
            seen(namesById.get(String(block.tool_use_id)), { output: block.content, isError: block.is_error === true });
        }
      }
    }
  }
  const extraTools = tools.map((tool) => {
    const result = results.get(tool.name);
    return { ...tool, ...(result ? { result } : {}) };
  });
  return { extraTools };
}

export function conversationToCapture(conversation: Conversation, upstream: URL): Capture {
  const { turns } = conversation;
  const first = turns[0];
  const caveats = conversation.caveats;
  const requestParams = deriveRequestParams(first.style, first.body, caveats);
  turns.slice(1).forEach((turn, index) => {
    if (!isDeepStrictEqual(deriveRequestParams(turn.style, turn.body, []), requestParams))
      caveats.push(`turn ${index + 1}'s body differs from turn 0's beyond messages: only a body transform could replay it`);
  });
  const { prompt, history, systemPrompt } = callOf(first.style, first.body, caveats);
  const toolkit = toolkitOf(first.style, turns, caveats);
  const lastReply = turns[turns.length - 1].reply;
  // A loop cut short by maxTurns (or a client that stopped) ends on a reply with tool calls.
  const maxTurns = lastReply.toolCalls?.length && lastReply.status === undefined ? turns.length : undefined;
  const mode = first.stream ? "stream" : "run";
  const requests = turns.map((turn, index): Request => ({
    index,
    method: turn.method,
    path: turn.path,
    headers: turn.headers,
    body: turn.body,
    raw: turn.raw,
  }));
  return {
    id: conversation.id,
    title: `${first.style} ${mode} recorded by the capture proxy (${turns.length} turn${turns.length === 1 ? "" : "s"})`,
    provenance: {
      source: `conformance capture (recording proxy), upstream ${upstream.origin}`,
      date: conversation.capturedAt.slice(0, 10),
      provider: upstream.host,
      kind: "captured",
      format: "proxy",
      capturedAt: conversation.capturedAt,
      originalSha256: conversation.originalSha256,
      derived: ["requestParams"],
    },
    client: {
      style: first.style,
      model: String(first.body.model ?? ""),
      ...(systemPrompt !== undefined ? { systemPrompt } : {}),
      ...(maxTurns ? { maxTurns } : {}),
      ...(Object.keys(requestParams).length ? { requestParams } : {}),
    },
    ...(toolkit ? { toolkit } : {}),
    call: { prompt, ...(history ? { history } : {}) },
    upstream: { replies: turns.map((turn) => turn.reply) as [ScriptedReply, ...ScriptedReply[]] },
    exchanges: [{ stream: first.stream, requests: requests as [Request, ...Request[]] }],
  };
}

/** SPEC.md client.retry.statuses: the client sends the same body again after these. */
const RETRIED_STATUSES = [429, 500, 502, 503, 504];

/** Does `next` continue `conversation`: the next turn of its tool loop, or a retry of its last request? */
export function continues(conversation: Conversation, next: Turn): boolean {
  const previous = conversation.turns[conversation.turns.length - 1];
  if (
    previous.style !== next.style ||
    previous.stream !== next.stream ||
    previous.path !== next.path ||
    previous.body.model !== next.body.model
  )
    return false;
  if (previous.headers.authorization !== next.headers.authorization || previous.headers["x-api-key"] !== next.headers["x-api-key"])
    return false;
  if (previous.reply.status !== undefined) return RETRIED_STATUSES.includes(previous.reply.status) && previous.raw === next.raw;
  if (!previous.reply.toolCalls?.length) return false;
  // The previous messages, then at least the assistant's answer and the tool results.
  return nextTurnOf(previous, next) !== undefined;
}
