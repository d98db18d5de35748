// Public shapes of the unified LLM client (SPEC.md section 4).
import type { Logger, Request, ToolResult, ToolSet, WaitFor } from "../types.ts";
import type { MetricEvent } from "./metrics.ts";

export type Style = "openai" | "anthropic";

/** A wire-style message of the style in use (openai chat message or anthropic message). */
export type Message = Record<string, unknown>;

export interface Usage {
  input: number;
  output: number;
}

export interface ToolCall {
  id: string;
  name: string;
  args: Record<string, unknown>;
}

/** Where `ask` keeps transcripts (SPEC.md client.memory.ask, client.store.*). */
export interface ConversationStore {
  get(id: string): Promise<Message[] | undefined> | Message[] | undefined;
  save(id: string, messages: Message[]): Promise<void> | void;
}

export interface BeforeLLMInput {
  messages: Message[];
  /** The tool list in the wire format of the style in use. */
  tools: unknown[];
  model: string;
  turn: number;
}

export interface Hooks {
  /** May replace messages and/or tools; a replacement persists for the rest of the run. */
  beforeLLM?(
    input: BeforeLLMInput,
  ): Promise<{ messages?: Message[]; tools?: unknown[] } | void> | { messages?: Message[]; tools?: unknown[] } | void;
  /** Observes each answered LLM call: the provider's raw answer (`{streamed: true}` on the stream path, decision 46). */
  afterLLM?(input: { response: unknown; model: string; turn: number }): Promise<void> | void;
  /** `{result}` short-circuits the tool; `{args}` runs it with these arguments. */
  beforeTool?(input: {
    name: string;
    args: Record<string, unknown>;
    turn: number;
  }):
    | Promise<{ result?: ToolResult; args?: Record<string, unknown> } | void>
    | { result?: ToolResult; args?: Record<string, unknown> }
    | void;
  /** Runs after the tool (not after a beforeTool short-circuit); `{result}` replaces the result the LLM sees. */
  afterTool?(input: {
    name: string;
    args: Record<string, unknown>;
    result: ToolResult;
    id: string;
    turn: number;
  }): Promise<{ result?: ToolResult } | void> | { result?: ToolResult } | void;
}

export type RequestBody = Record<string, unknown>;
export type BodyTransform = (body: RequestBody) => RequestBody | null | undefined | Promise<RequestBody | null | undefined>;
export type FetchLike = (input: string, init: RequestInit) => Promise<Response>;

export interface ClientOptions {
  baseUrl: string;
  style: Style;
  model: string;
  apiKey?: string;
  /** Extra request headers, sent on every LLM request. */
  headers?: Record<string, string>;
  systemPrompt?: string;
  /** At most this many LLM calls per run (default 10). */
  maxTurns?: number;
  hooks?: Hooks;
  /** Retries after the first attempt (default 2). */
  retries?: number;
  /** First backoff wait when no Retry-After is given; doubles per retry (default 500). */
  retryBaseMs?: number;
  /** Bound of the whole call: every turn, attempt, wait and body read together (default 120000; SPEC client.timeout). */
  timeoutMs?: number;
  store?: ConversationStore;
  /** Top-level keys merged into every body; caller wins; messages/tools/stream refused. */
  requestParams?: Record<string, unknown>;
  /** Last word on the body before it is serialized; null/undefined keeps the given body. */
  bodyTransform?: BodyTransform;
  /** The HTTP transport for LLM requests (default globalThis.fetch). */
  fetch?: FetchLike;
  /** Called with every error a call fails with, before it is thrown. */
  onError?(error: Error): void;
  logger?: Logger;
  /** Resolves a suspended tool's Request; without it a suspension halts the run (SPEC client.suspension.*). */
  waitFor?: WaitFor;
  /** Receives every metric event (SPEC.md client.metrics.events); the same events feed `metrics()`. */
  onMetric?(event: MetricEvent): void;
}

export interface RunResult {
  text: string;
  usage: Usage;
  /** The transcript after the run, in the wire format of the style. */
  messages: Message[];
  /** "pending" when a suspension halted the run (client.suspension.halt), else "done". */
  status: "done" | "pending";
  /** The Request the run halted on, with status "pending". */
  pending?: Request;
}

export type StreamEvent =
  | { type: "text"; delta: string }
  | { type: "tool_call"; id: string; name: string; args: Record<string, unknown> }
  | { type: "tool_result"; id: string; name: string; output: string; isError: boolean }
  | { type: "usage"; input: number; output: number }
  /** A tool suspended: emitted before waitFor is asked (client.suspension.stream). */
  | { type: "pending"; request: Request }
  | { type: "done"; result: RunResult };

export interface CallOptions {
  toolkit?: ToolSet;
  signal?: AbortSignal;
}

export interface Client {
  run(prompt: string, options?: CallOptions & { history?: Message[] }): Promise<RunResult>;
  ask(prompt: string, options: CallOptions & { id: string }): Promise<RunResult>;
  /** `history` continues a transcript like run's; without it, `id` loads the stored one. */
  stream(prompt: string, options?: CallOptions & { id?: string; history?: Message[] }): AsyncIterable<StreamEvent>;
  /** The store passed as `store`, else the client's default in-memory store. */
  conversationStore(): ConversationStore;
  /** The Prometheus text of every metric event of this client so far (SPEC.md client.metrics.text). */
  metrics(): string;
}
