// An import's wire calls, parsed as LLM requests and chained into tool loops: calls whose messages chain
// (each request's messages are the previous ones, the assistant's reply, then tool results) are one
// loop, a multi-turn capture (derive.ts).
import { isDeepStrictEqual } from "node:util";
import { isRecord } from "../common/json.ts";
import type { Style } from "./client-body.ts";
import { answersToolCalls, nextTurnOf } from "./conversation.ts";
import { pathOf, type WireCall } from "./wire.ts";

export class DeriveError extends Error {}

// A wire body as the provider's JSON has it; each field is checked where it is read.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type Body = Record<string, any>;
export interface Parsed {
  call: WireCall;
  body: Body;
  style: Style;
  messages: Body[];
}

function styleOf(call: WireCall, body: Body): Style {
  const path = pathOf(call.url).replace(/[?#].*$/s, "");
  if (/\/chat\/completions$/.test(path)) return "openai";
  if (/\/messages$/.test(path)) return "anthropic";
  if (Object.keys(call.headers).some((name) => name.toLowerCase() === "anthropic-version")) return "anthropic";
  const blocks = (body.messages as unknown[]).flatMap((message) =>
    isRecord(message) && Array.isArray(message.content) ? message.content : [],
  );
  if (
    body.system !== undefined ||
    blocks.some((block) => isRecord(block) && (["tool_use", "tool_result"] as unknown[]).includes(block.type))
  )
    return "anthropic";
  return "openai";
}

export function parse(call: WireCall, file: string): Parsed {
  let body: unknown;
  try {
    body = JSON.parse(call.body);
  } catch {
    // The parser's message could quote the body: say where only.
    throw new DeriveError(`${file}: ${call.where}: the request body is not JSON; expected an LLM request (chat/completions or messages)`);
  }
  if (!isRecord(body) || !Array.isArray(body.messages) || typeof body.model !== "string") {
    throw new DeriveError(`${file}: ${call.where}: expected an LLM request body with "model" and a "messages" list`);
  }
  return { call, body, style: styleOf(call, body), messages: body.messages.filter(isRecord) };
}

/** The messages a request adds to `before`'s (conversation.ts), with the same system: the assistant reply, then what follows it. */
export function added(before: Parsed, after: Parsed): { assistant: Body; rest: Body[] } | undefined {
  if (!isDeepStrictEqual(after.body.system, before.body.system)) return undefined;
  const turn = nextTurnOf(before, after);
  return turn?.assistant.role === "assistant" ? turn : undefined;
}

/** Calls in input order -> tool loops (lists of turns). A call that continues no loop starts one. */
export function chainCalls(parsed: Parsed[]): Parsed[][] {
  const loops: Parsed[][] = [];
  for (const call of parsed) {
    const loop = [...loops].reverse().find((candidate) => {
      const turns = added(candidate[candidate.length - 1]!, call);
      return turns !== undefined && answersToolCalls(call.style, turns.rest);
    });
    if (loop) loop.push(call);
    else loops.push([call]);
  }
  return loops;
}
