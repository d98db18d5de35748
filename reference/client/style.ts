// What differs between the openai and the anthropic wire (SPEC.md client.endpoint.*, client.body.*,
// client.loop.*-results, client.stream.*-sse); the loop is written once against this interface.
import type { EventSourceMessage } from "eventsource-parser";
import type { ToolResult, ToolSet } from "../types.ts";
import type { Message, RequestBody, ToolCall, Usage } from "./types.ts";

/** One LLM answer, normalized. */
export interface TurnResult {
  text: string;
  toolCalls: ToolCall[];
  usage: Usage;
  /** The answer as it goes back into the transcript. */
  assistantMessage: Message;
  /** Whether the loop runs the tool calls and asks again. */
  wantsToolResults: boolean;
}

export interface BaseBodyInput {
  model: string;
  systemPrompt: string;
  messages: Message[];
  tools: unknown[];
  stream: boolean;
}

export interface StyleAdapter {
  endpoint(baseUrl: string): string;
  headers(apiKey: string | undefined): Record<string, string>;
  /** The transcript a call starts from: history (or the system message) plus the user prompt. */
  initialMessages(systemPrompt: string, history: Message[], prompt: string): Message[];
  toolList(toolkit: ToolSet | undefined): unknown[];
  baseBody(input: BaseBodyInput): RequestBody;
  parseResponse(json: unknown): TurnResult;
  /** Consume one streamed answer, yielding text deltas as they come; returns the whole turn. */
  readStream(events: AsyncIterable<EventSourceMessage>): AsyncGenerator<string, TurnResult>;
  toolResultMessages(calls: ToolCall[], results: ToolResult[]): Message[];
}

/** A JSON object: not null, not an array, not a primitive. One test for every place that reads one. */
export const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === "object" && value !== null && !Array.isArray(value);

/** Tool arguments arrive as JSON text; anything that is not an object becomes `{}`. */
export function parseArgs(text: string | undefined): Record<string, unknown> {
  if (!text) return {};
  try {
    const value: unknown = JSON.parse(text);
    return isRecord(value) ? value : {};
  } catch {
    return {};
  }
}

export const asRecord = (value: unknown): Record<string, unknown> => (isRecord(value) ? value : {});

export const asNumber = (value: unknown): number => (typeof value === "number" && Number.isFinite(value) ? value : 0);
