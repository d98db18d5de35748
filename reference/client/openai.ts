// The openai chat-completions wire (SPEC.md client.endpoint.openai, client.body.openai,
// client.loop.openai-results, client.stream.openai-sse).
import { LLMStreamError } from "./errors.ts";
import { parseEventData } from "./sse.ts";
import { asNumber, asRecord, parseArgs, type StyleAdapter, type TurnResult } from "./style.ts";
import type { Message, ToolCall } from "./types.ts";

function usageOf(value: unknown) {
  const usage = asRecord(value);
  return { input: asNumber(usage.prompt_tokens), output: asNumber(usage.completion_tokens) };
}

function assistantMessage(text: string, calls: ToolCall[], rawArgs: string[]): Message {
  if (calls.length === 0) return { role: "assistant", content: text };
  return {
    role: "assistant",
    // The provider sends null content beside tool calls when there is no text; keep it that way.
    content: text === "" ? null : text,
    tool_calls: calls.map((call, i) => ({
      id: call.id,
      type: "function",
      function: { name: call.name, arguments: rawArgs[i] ?? JSON.stringify(call.args) },
    })),
  };
}

function turn(text: string, calls: ToolCall[], rawArgs: string[], usage: { input: number; output: number }): TurnResult {
  return { text, toolCalls: calls, usage, assistantMessage: assistantMessage(text, calls, rawArgs), wantsToolResults: calls.length > 0 };
}

export const openaiStyle: StyleAdapter = {
  endpoint: (baseUrl) => `${baseUrl.replace(/\/+$/, "")}/chat/completions`,
  headers: (apiKey) => ({ "content-type": "application/json", ...(apiKey ? { authorization: `Bearer ${apiKey}` } : {}) }),
  initialMessages(systemPrompt, history, prompt) {
    // The system prompt opens a new conversation only: a history already carries it.
    const start = history.length > 0 ? [...history] : systemPrompt ? [{ role: "system", content: systemPrompt }] : [];
    return [...start, { role: "user", content: prompt }];
  },
  toolList: (toolkit) => toolkit?.toOpenAI() ?? [],
  baseBody({ model, messages, tools, stream }) {
    return {
      model,
      messages,
      // SPEC.md client.tools.omit-empty: absent, not empty, and tool_choice goes with it.
      ...(tools.length > 0 ? { tools, tool_choice: "auto" } : {}),
      ...(stream ? { stream: true, stream_options: { include_usage: true } } : {}),
    };
  },
  parseResponse(json) {
    const choices = asRecord(json).choices;
    // No choice, or a choice without a message, is an answer with no text and no call (client.faults.empty).
    const message = asRecord(Array.isArray(choices) ? asRecord(choices[0]).message : undefined);
    const rawCalls = Array.isArray(message.tool_calls) ? message.tool_calls.map(asRecord) : [];
    const rawArgs = rawCalls.map((call) => String(asRecord(call.function).arguments ?? ""));
    const calls = rawCalls.map((call, i) => ({
      id: String(call.id ?? ""),
      name: String(asRecord(call.function).name ?? ""),
      args: parseArgs(rawArgs[i]),
    }));
    const text = typeof message.content === "string" ? message.content : "";
    return turn(text, calls, rawArgs, usageOf(asRecord(json).usage));
  },
  async *readStream(events) {
    let text = "";
    let usage = { input: 0, output: 0 };
    let finished = false;
    // Tool-call fragments merged by their index: only the first fragment carries id and name.
    const partial = new Map<number, { id: string; name: string; args: string }>();
    let sawDone = false;
    for await (const event of events) {
      if (event.data.trim() === "[DONE]") {
        sawDone = true;
        break;
      }
      const chunk = parseEventData(event);
      if (chunk.usage) usage = usageOf(chunk.usage);
      if (!Array.isArray(chunk.choices) || chunk.choices.length === 0) continue;
      const choice = asRecord(chunk.choices[0]);
      if (choice.finish_reason) finished = true;
      const delta = asRecord(choice.delta);
      if (typeof delta.content === "string" && delta.content !== "") {
        text += delta.content;
        yield delta.content;
      }
      for (const fragment of Array.isArray(delta.tool_calls) ? delta.tool_calls.map(asRecord) : []) {
        const index = asNumber(fragment.index);
        const fn = asRecord(fragment.function);
        const entry = partial.get(index) ?? { id: "", name: "", args: "" };
        if (typeof fragment.id === "string") entry.id = fragment.id;
        if (typeof fn.name === "string") entry.name += fn.name;
        if (typeof fn.arguments === "string") entry.args += fn.arguments;
        partial.set(index, entry);
      }
    }
    // [DONE] is the terminal event (SPEC.md client.stream.openai-sse): a stream that ends after
    // finish_reason but without it is cut, and the usage chunk that comes between them is lost.
    if (!sawDone)
      throw new LLMStreamError(finished ? "the stream ended after finish_reason but before [DONE]" : "the stream ended before [DONE]");
    const merged = [...partial.entries()].sort(([a], [b]) => a - b).map(([, c]) => c);
    return turn(
      text,
      merged.map((c) => ({ id: c.id, name: c.name, args: parseArgs(c.args) })),
      merged.map((c) => c.args),
      usage,
    );
  },
  toolResultMessages: (calls, results) => calls.map((call, i) => ({ role: "tool", tool_call_id: call.id, content: results[i]!.output })),
};
