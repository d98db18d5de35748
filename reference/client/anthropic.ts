// The anthropic messages wire (SPEC.md client.endpoint.anthropic, client.body.anthropic*,
// client.loop.anthropic-results, client.loop.anthropic-thinking, client.stream.anthropic-sse).
import { LLMStreamError } from "./errors.ts";
import { parseEventData } from "./sse.ts";
import { asNumber, asRecord, parseArgs, type StyleAdapter, type TurnResult } from "./style.ts";

export const ANTHROPIC_VERSION = "2023-06-01";
export const ANTHROPIC_DEFAULT_MAX_TOKENS = 4096;

type Block = Record<string, unknown>;

function turnFromBlocks(blocks: Block[], stopReason: unknown, usage: { input: number; output: number }): TurnResult {
  const text = blocks
    .filter((b) => b.type === "text")
    .map((b) => String(b.text ?? ""))
    .join("");
  const toolCalls = blocks
    .filter((b) => b.type === "tool_use")
    .map((b) => ({ id: String(b.id ?? ""), name: String(b.name ?? ""), args: asRecord(b.input) }));
  return {
    text,
    toolCalls,
    usage,
    assistantMessage: { role: "assistant", content: blocks },
    // SPEC.md client.stream.anthropic-sse: only stop_reason "tool_use" continues the loop.
    wantsToolResults: stopReason === "tool_use" && toolCalls.length > 0,
  };
}

export const anthropicStyle: StyleAdapter = {
  endpoint(baseUrl) {
    const base = baseUrl.replace(/\/+$/, "");
    return base.endsWith("/v1") ? `${base}/messages` : `${base}/v1/messages`;
  },
  headers: (apiKey) => ({
    "content-type": "application/json",
    "anthropic-version": ANTHROPIC_VERSION,
    ...(apiKey ? { "x-api-key": apiKey } : {}),
  }),
  initialMessages: (_systemPrompt, history, prompt) => [...history, { role: "user", content: prompt }],
  toolList: (toolkit) => toolkit?.toAnthropic() ?? [],
  baseBody({ model, systemPrompt, messages, tools, stream }) {
    return {
      model,
      max_tokens: ANTHROPIC_DEFAULT_MAX_TOKENS,
      // Pinned decision 2: an empty system block is refused upstream, so it is left out.
      ...(systemPrompt ? { system: systemPrompt } : {}),
      messages,
      ...(tools.length > 0 ? { tools } : {}),
      ...(stream ? { stream: true } : {}),
    };
  },
  parseResponse(json) {
    const answer = asRecord(json);
    // No content block is an answer with no text and no call (client.faults.empty).
    const content = Array.isArray(answer.content) ? answer.content : [];
    const usage = asRecord(answer.usage);
    return turnFromBlocks(content.map(asRecord), answer.stop_reason, {
      input: asNumber(usage.input_tokens),
      output: asNumber(usage.output_tokens),
    });
  },
  async *readStream(events) {
    const blocks: Block[] = [];
    const partialJson = new Map<number, string>();
    const usage = { input: 0, output: 0 };
    let stopReason: unknown;
    for await (const event of events) {
      const data = parseEventData(event);
      const type = data.type ?? event.event;
      if (type === "message_start") {
        const startUsage = asRecord(asRecord(data.message).usage);
        usage.input = asNumber(startUsage.input_tokens);
        usage.output = asNumber(startUsage.output_tokens);
      } else if (type === "content_block_start") {
        const block = { ...asRecord(data.content_block) };
        if (block.type === "tool_use") block.input = {};
        blocks[asNumber(data.index)] = block;
      } else if (type === "content_block_delta") {
        const index = asNumber(data.index);
        const delta = asRecord(data.delta);
        const block = blocks[index];
        if (!block) throw new LLMStreamError(`content_block_delta for block ${index} before its content_block_start`);
        if (delta.type === "text_delta" && typeof delta.text === "string") {
          block.text = String(block.text ?? "") + delta.text;
          yield delta.text;
        } else if (delta.type === "input_json_delta" && typeof delta.partial_json === "string") {
          partialJson.set(index, (partialJson.get(index) ?? "") + delta.partial_json);
        } else if (delta.type === "thinking_delta" && typeof delta.thinking === "string") {
          // client.loop.anthropic-thinking: the echoed block must be whole, never answer text.
          block.thinking = String(block.thinking ?? "") + delta.thinking;
        } else if (delta.type === "signature_delta" && typeof delta.signature === "string") {
          block.signature = String(block.signature ?? "") + delta.signature;
        }
      } else if (type === "content_block_stop") {
        const index = asNumber(data.index);
        if (partialJson.has(index) && blocks[index]) blocks[index]!.input = parseArgs(partialJson.get(index));
      } else if (type === "message_delta") {
        stopReason = asRecord(data.delta).stop_reason ?? stopReason;
        // output_tokens here is cumulative for the message: the last value is the total.
        const deltaUsage = asRecord(data.usage);
        if (typeof deltaUsage.output_tokens === "number") usage.output = deltaUsage.output_tokens;
      } else if (type === "error") {
        throw new LLMStreamError(`the upstream sent an error event: ${JSON.stringify(data.error ?? data)}`);
      } else if (type === "message_stop") {
        return turnFromBlocks(blocks.filter(Boolean), stopReason, usage);
      }
    }
    throw new LLMStreamError("the stream ended before message_stop");
  },
  toolResultMessages: (calls, results) => [
    {
      role: "user",
      content: calls.map((call, i) => ({
        type: "tool_result",
        tool_use_id: call.id,
        content: results[i]!.output,
        is_error: results[i]!.isError,
      })),
    },
  ],
};
