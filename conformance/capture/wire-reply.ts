// An upstream's answer as seen on the wire (JSON or SSE, openai or anthropic style) -> the llm-mock
// reply (fixtures/llm-mock/README.md) that makes the mock answer the same way, so a replay scripts
// the same replies: same text, tool calls (ids, names, arguments), usage, stop reason, error status.
// The one reader of upstream answers: the proxy records with it, import (reply.ts) reads through it.
import { createParser } from "eventsource-parser";
import type { ScriptedReply, ScriptedToolCall } from "../../fixtures/llm-mock/script.ts";
import { isRecord } from "../common/json.ts";
import type { Style } from "./client-body.ts";

export interface WireAnswer {
  status: number;
  /** Lower-case names. */
  headers: Record<string, string | string[] | undefined>;
  /** The body, decoded (content-encoding undone). */
  text: string;
}

export interface ReplyReading {
  reply: ScriptedReply;
  /** What the mock cannot reproduce exactly (said in the proxy's log, never with values). */
  caveats: string[];
  /** For an SSE body: how many events carried JSON data. */
  sseEvents?: number;
}

/** SSE by its content type, or by its first bytes (`data:`, `event:`, or a `:` comment line). */
export const looksLikeSse = (text: string, contentType?: string) =>
  /event-stream/i.test(contentType ?? "") || /^(data|event|:)/m.test(text.trimStart().slice(0, 10));

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

/** Tool arguments as the mock will send them (compact JSON); a caveat when the upstream's differ. */
function toolArgs(raw: string, name: string, caveats: string[]): Record<string, unknown> {
  const parsed = parseJson(raw === "" ? "{}" : raw);
  if (!isRecord(parsed)) {
    caveats.push(`tool call ${name}: arguments are not a JSON object; replayed as {}`);
    return {};
  }
  if (raw !== "" && JSON.stringify(parsed) !== raw)
    caveats.push(`tool call ${name}: arguments were not compact JSON; the replay sends them compact`);
  return parsed;
}

function finish(reply: ScriptedReply, stopReason: string | undefined, style: Style): ScriptedReply {
  const calls = reply.toolCalls?.length ?? 0;
  const defaultStop = style === "openai" ? (calls ? "tool_calls" : "stop") : calls ? "tool_use" : "end_turn";
  if (stopReason && stopReason !== defaultStop) reply.stopReason = stopReason;
  return reply;
}

function errorReply(answer: WireAnswer): ScriptedReply {
  const reply: ScriptedReply = { status: answer.status };
  const retryAfter = answer.headers["retry-after"];
  if (typeof retryAfter === "string") reply.retryAfter = /^\d+$/.test(retryAfter) ? Number(retryAfter) : retryAfter;
  const json = parseJson(answer.text);
  reply.body = json !== undefined && /json/i.test(String(answer.headers["content-type"] ?? "")) ? json : answer.text;
  return reply;
}

function openaiJson(body: Record<string, unknown>, caveats: string[]): ScriptedReply {
  const choices = Array.isArray(body.choices) ? body.choices : [];
  const usage = usageOf(body.usage, "prompt_tokens", "completion_tokens");
  const message = isRecord(choices[0]) && isRecord(choices[0].message) ? choices[0].message : undefined;
  if (!message) return { fault: "empty", ...(usage ? { usage } : {}) };
  const reply: ScriptedReply = {};
  if (typeof message.content === "string") reply.text = message.content;
  const calls: ScriptedToolCall[] = (Array.isArray(message.tool_calls) ? message.tool_calls : []).filter(isRecord).map((call) => {
    const fn = isRecord(call.function) ? call.function : {};
    const name = String(fn.name ?? "");
    return { id: String(call.id ?? ""), name, args: toolArgs(String(fn.arguments ?? ""), name, caveats) };
  });
  if (calls.length) reply.toolCalls = calls;
  if (usage) reply.usage = usage;
  return finish(reply, isRecord(choices[0]) ? (choices[0].finish_reason as string | undefined) : undefined, "openai");
}

function anthropicJson(body: Record<string, unknown>, caveats: string[]): ScriptedReply {
  const blocks = Array.isArray(body.content) ? body.content.filter(isRecord) : [];
  const usage = usageOf(body.usage, "input_tokens", "output_tokens");
  if (!blocks.length) return { fault: "empty", ...(usage ? { usage } : {}) };
  const texts = blocks.filter((block) => block.type === "text").map((block) => String(block.text ?? ""));
  if (texts.length > 1) caveats.push("several text blocks: replayed as one");
  const reply: ScriptedReply = {};
  if (texts.length) reply.text = texts.join("");
  const calls = blocks
    .filter((block) => block.type === "tool_use")
    .map((block) => ({ id: String(block.id ?? ""), name: String(block.name ?? ""), args: isRecord(block.input) ? block.input : {} }));
  if (calls.length) reply.toolCalls = calls;
  if (usage) reply.usage = usage;
  return finish(reply, body.stop_reason as string | undefined, "anthropic");
}

function usageOf(value: unknown, inputKey: string, outputKey: string): ScriptedReply["usage"] | undefined {
  if (!isRecord(value)) return undefined;
  return { input: Number(value[inputKey] ?? 0), output: Number(value[outputKey] ?? 0) };
}

/** The data of each SSE event, in order; `malformed` when a data line is not JSON. */
function sseEvents(text: string): { events: unknown[]; malformed: boolean; done: boolean } {
  const events: unknown[] = [];
  let malformed = false;
  let done = false;
  const parser = createParser({
    onEvent(event) {
      if (event.data === "[DONE]") return void (done = true);
      const data = parseJson(event.data);
      if (data === undefined) malformed = true;
      else events.push(data);
    },
  });
  parser.feed(text);
  return { events, malformed, done };
}

function openaiSse(text: string, caveats: string[]): ScriptedReply {
  const { events, malformed, done } = sseEvents(text);
  let content = "";
  let sawChoice = false;
  let stop: string | undefined;
  let usage: ScriptedReply["usage"];
  const calls = new Map<number, { id: string; name: string; args: string }>();
  for (const chunk of events.filter(isRecord)) {
    usage = usageOf(chunk.usage, "prompt_tokens", "completion_tokens") ?? usage;
    const choice = Array.isArray(chunk.choices) && isRecord(chunk.choices[0]) ? chunk.choices[0] : undefined;
    if (!choice) continue;
    sawChoice = true;
    if (typeof choice.finish_reason === "string") stop = choice.finish_reason;
    const delta = isRecord(choice.delta) ? choice.delta : {};
    if (typeof delta.content === "string") content += delta.content;
    for (const part of Array.isArray(delta.tool_calls) ? delta.tool_calls.filter(isRecord) : []) {
      const index = Number(part.index ?? 0);
      const entry = calls.get(index) ?? { id: "", name: "", args: "" };
      const fn = isRecord(part.function) ? part.function : {};
      if (typeof part.id === "string" && part.id) entry.id = part.id;
      if (typeof fn.name === "string" && fn.name) entry.name = fn.name;
      if (typeof fn.arguments === "string") entry.args += fn.arguments;
      calls.set(index, entry);
    }
  }
  if (!sawChoice && !malformed && done) return { fault: "empty", ...(usage ? { usage } : {}) };
  const reply: ScriptedReply = {};
  if (content !== "" || !calls.size) reply.text = content;
  if (calls.size)
    reply.toolCalls = [...calls.entries()]
      .sort(([a], [b]) => a - b)
      .map(([, call]) => ({ id: call.id, name: call.name, args: toolArgs(call.args, call.name, caveats) }));
  if (usage) reply.usage = usage;
  if (malformed) reply.fault = "malformed-sse";
  else if (!done) reply.fault = stop ? "cut-after-finish" : "cut-stream";
  return finish(reply, stop, "openai");
}

function anthropicSse(text: string, caveats: string[]): ScriptedReply {
  const { events, malformed } = sseEvents(text);
  const blocks = new Map<number, { type: string; text: string; id: string; name: string; json: string }>();
  let stop: string | undefined;
  let input: number | undefined;
  let output: number | undefined;
  let stopped = false;
  let sawDelta = false;
  for (const event of events.filter(isRecord)) {
    if (event.type === "message_start" && isRecord(event.message) && isRecord(event.message.usage))
      input = Number(event.message.usage.input_tokens ?? 0);
    if (event.type === "content_block_start" && isRecord(event.content_block)) {
      const block = event.content_block;
      blocks.set(Number(event.index ?? 0), {
        type: String(block.type),
        text: String(block.text ?? ""),
        id: String(block.id ?? ""),
        name: String(block.name ?? ""),
        json: "",
      });
    }
    if (event.type === "content_block_delta" && isRecord(event.delta)) {
      const block = blocks.get(Number(event.index ?? 0));
      if (block && event.delta.type === "text_delta") block.text += String(event.delta.text ?? "");
      if (block && event.delta.type === "input_json_delta") block.json += String(event.delta.partial_json ?? "");
    }
    if (event.type === "message_delta") {
      sawDelta = true;
      if (isRecord(event.delta) && typeof event.delta.stop_reason === "string") stop = event.delta.stop_reason;
      if (isRecord(event.usage)) output = Number(event.usage.output_tokens ?? 0);
    }
    if (event.type === "message_stop") stopped = true;
  }
  const usage = input !== undefined || output !== undefined ? { input: input ?? 0, output: output ?? 0 } : undefined;
  if (!blocks.size && stopped && !malformed) return { fault: "empty", ...(usage ? { usage } : {}) };
  const ordered = [...blocks.entries()].sort(([a], [b]) => a - b).map(([, block]) => block);
  const texts = ordered.filter((block) => block.type === "text");
  if (texts.length > 1) caveats.push("several text blocks: replayed as one");
  const reply: ScriptedReply = {};
  if (texts.length) reply.text = texts.map((block) => block.text).join("");
  const calls = ordered
    .filter((block) => block.type === "tool_use")
    .map((block) => ({ id: block.id, name: block.name, args: toolArgs(block.json, block.name, caveats) }));
  if (calls.length) reply.toolCalls = calls;
  if (usage) reply.usage = usage;
  if (malformed) reply.fault = "malformed-sse";
  else if (!stopped) reply.fault = sawDelta ? "cut-after-finish" : "cut-stream";
  return finish(reply, stop, "anthropic");
}

/** The mock reply for one upstream answer; `cut` when the body ended abnormally (a dropped connection). */
export function replyFromWire(style: Style, answer: WireAnswer, cut = false): ReplyReading {
  const caveats: string[] = [];
  if (answer.status >= 400) return { reply: errorReply(answer), caveats };
  if (cut) caveats.push("the upstream dropped the connection mid-body: replayed as drop-connection");
  const contentType = answer.headers["content-type"];
  const isSse = looksLikeSse(answer.text, typeof contentType === "string" ? contentType : undefined);
  if (isSse) {
    const reply = style === "openai" ? openaiSse(answer.text, caveats) : anthropicSse(answer.text, caveats);
    if (cut) reply.fault = "drop-connection";
    return { reply, caveats, sseEvents: sseEvents(answer.text).events.length };
  }
  const body = parseJson(answer.text);
  const reply: ScriptedReply = !isRecord(body)
    ? { fault: cut ? "drop-connection" : "malformed-sse" }
    : style === "openai"
      ? openaiJson(body, caveats)
      : anthropicJson(body, caveats);
  if (cut) reply.fault = "drop-connection";
  return { reply, caveats };
}
