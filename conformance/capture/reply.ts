// What the upstream answered, as an llm-mock reply ({text, toolCalls, usage}: fixtures/llm-mock/README.md):
// read from a response body (JSON, or SSE events accumulated) or from the assistant message the
// client echoed in its next request (what the replay must make it echo again).
import type { Style } from "./client-body.ts";

export interface MockReply {
  text?: string;
  toolCalls?: { id: string; name: string; args: Record<string, unknown> }[];
  usage?: { input: number; output: number };
}

const record = (value: unknown): Record<string, any> => (value !== null && typeof value === "object" && !Array.isArray(value) ? (value as Record<string, any>) : {});
const num = (value: unknown) => (typeof value === "number" ? value : 0);

function parseArgs(text: unknown): Record<string, unknown> {
  if (typeof text !== "string" || text.trim() === "") return {};
  try {
    return record(JSON.parse(text));
  } catch {
    return {};
  }
}

function finish(text: string, calls: MockReply["toolCalls"], usage: MockReply["usage"]): MockReply {
  return {
    // The mock sends null content beside tool calls when the reply has no text, as providers do.
    ...(text !== "" || !calls?.length ? { text } : {}),
    ...(calls?.length ? { toolCalls: calls } : {}),
    ...(usage ? { usage } : {}),
  };
}

/** The reply an assistant message stands for (openai message, or anthropic content blocks). */
export function replyFromAssistant(style: Style, message: unknown): MockReply {
  const m = record(message);
  if (style === "openai") {
    const calls = (Array.isArray(m.tool_calls) ? m.tool_calls : []).map((call: unknown) => {
      const c = record(call);
      return { id: String(c.id ?? ""), name: String(record(c.function).name ?? ""), args: parseArgs(record(c.function).arguments) };
    });
    return finish(typeof m.content === "string" ? m.content : "", calls, undefined);
  }
  const blocks = Array.isArray(m.content) ? m.content.map(record) : [{ type: "text", text: String(m.content ?? "") }];
  const text = blocks.filter((block) => block.type === "text").map((block) => String(block.text ?? "")).join("");
  const calls = blocks.filter((block) => block.type === "tool_use").map((block) => ({ id: String(block.id ?? ""), name: String(block.name ?? ""), args: record(block.input) }));
  return finish(text, calls, undefined);
}

/** `data:` payloads of an SSE text, in order (comments and other fields skipped). */
function sseData(text: string): string[] {
  return text
    .split(/\r?\n\r?\n/)
    .map((event) =>
      event
        .split(/\r?\n/)
        .filter((line) => line.startsWith("data:"))
        .map((line) => line.slice(5).replace(/^ /, ""))
        .join("\n"),
    )
    .filter((data) => data !== "");
}

export const looksLikeSse = (text: string, contentType?: string) => /event-stream/i.test(contentType ?? "") || /^(data|event|:)/m.test(text.trimStart().slice(0, 10));

/** The reply a response body holds, or undefined when it is neither the style's JSON nor its SSE. */
export function replyFromResponse(style: Style, text: string, contentType?: string): MockReply | undefined {
  if (looksLikeSse(text, contentType)) return style === "openai" ? openaiStream(text) : anthropicStream(text);
  let json: Record<string, any>;
  try {
    json = record(JSON.parse(text));
  } catch {
    return undefined;
  }
  if (style === "openai") {
    const message = record(record(Array.isArray(json.choices) ? json.choices[0] : undefined).message);
    if (!Object.keys(message).length) return undefined;
    const usage = json.usage ? { input: num(json.usage.prompt_tokens), output: num(json.usage.completion_tokens) } : undefined;
    return { ...replyFromAssistant(style, message), ...(usage ? { usage } : {}) };
  }
  if (!Array.isArray(json.content)) return undefined;
  const usage = json.usage ? { input: num(json.usage.input_tokens), output: num(json.usage.output_tokens) } : undefined;
  return { ...replyFromAssistant(style, json), ...(usage ? { usage } : {}) };
}

function events(text: string): Record<string, any>[] {
  return sseData(text).flatMap((data) => {
    if (data.trim() === "[DONE]") return [];
    try {
      return [record(JSON.parse(data))];
    } catch {
      return [];
    }
  });
}

function openaiStream(text: string): MockReply | undefined {
  let content = "";
  let usage: MockReply["usage"];
  const calls = new Map<number, { id: string; name: string; args: string }>();
  const chunks = events(text);
  if (!chunks.length) return undefined;
  for (const chunk of chunks) {
    if (chunk.usage) usage = { input: num(chunk.usage.prompt_tokens), output: num(chunk.usage.completion_tokens) };
    const delta = record(record(Array.isArray(chunk.choices) ? chunk.choices[0] : undefined).delta);
    if (typeof delta.content === "string") content += delta.content;
    for (const fragment of Array.isArray(delta.tool_calls) ? delta.tool_calls.map(record) : []) {
      const entry = calls.get(num(fragment.index)) ?? { id: "", name: "", args: "" };
      if (typeof fragment.id === "string") entry.id = fragment.id;
      const fn = record(fragment.function);
      if (typeof fn.name === "string") entry.name += fn.name;
      if (typeof fn.arguments === "string") entry.args += fn.arguments;
      calls.set(num(fragment.index), entry);
    }
  }
  const list = [...calls.entries()].sort(([a], [b]) => a - b).map(([, c]) => ({ id: c.id, name: c.name, args: parseArgs(c.args) }));
  return finish(content, list, usage);
}

function anthropicStream(text: string): MockReply | undefined {
  const blocks: Record<string, any>[] = [];
  const partial = new Map<number, string>();
  const usage = { input: 0, output: 0 };
  const list = events(text);
  if (!list.length) return undefined;
  for (const event of list) {
    if (event.type === "message_start") {
      usage.input = num(record(record(event.message).usage).input_tokens);
      usage.output = num(record(record(event.message).usage).output_tokens);
    } else if (event.type === "content_block_start") {
      blocks[num(event.index)] = { ...record(event.content_block) };
    } else if (event.type === "content_block_delta") {
      const block = blocks[num(event.index)];
      const delta = record(event.delta);
      if (block && delta.type === "text_delta") block.text = String(block.text ?? "") + String(delta.text ?? "");
      if (delta.type === "input_json_delta") partial.set(num(event.index), (partial.get(num(event.index)) ?? "") + String(delta.partial_json ?? ""));
    } else if (event.type === "message_delta" && typeof record(event.usage).output_tokens === "number") {
      usage.output = event.usage.output_tokens;
    }
  }
  for (const [index, json] of partial) if (blocks[index]) blocks[index]!.input = parseArgs(json);
  return { ...replyFromAssistant("anthropic", { content: blocks.filter(Boolean) }), usage };
}
