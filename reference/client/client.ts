// createClient: options resolved once, then run / ask / stream over the shared loop (SPEC.md section 4).
import { consoleLogger } from "../types.ts";
import { anthropicStyle } from "./anthropic.ts";
import { acceptedRequestParams } from "./body.ts";
import { runLoop, type LoopCall, type LoopSettings } from "./loop.ts";
import { createMetricsRegistry } from "./metrics.ts";
import { openaiStyle } from "./openai.ts";
import { createMemoryStore } from "./store.ts";
import type { Client, ClientOptions, RunResult, StreamEvent } from "./types.ts";

export const DEFAULTS = { maxTurns: 10, retries: 2, retryBaseMs: 500, timeoutMs: 120_000 } as const;

/** A limit given as 0 is not set (SPEC client.loop.max-turns, client.retry.after): a zero bound asks nothing. */
const limitOrDefault = (value: number | undefined, fallback: number) => (value === undefined || value === 0 ? fallback : value);

export function createClient(options: ClientOptions): Client {
  const logger = options.logger ?? consoleLogger;
  const style = options.style === "anthropic" ? anthropicStyle : openaiStyle;
  if (options.style !== "openai" && options.style !== "anthropic") throw new Error(`unknown client style "${String(options.style)}"`);
  // One registry per client: metrics() adds up this client's events only (client.metrics.text).
  const registry = createMetricsRegistry();
  const settings: LoopSettings = {
    style,
    url: style.endpoint(options.baseUrl),
    headers: { ...style.headers(options.apiKey), ...(options.headers ?? {}) },
    model: options.model,
    systemPrompt: options.systemPrompt ?? "",
    maxTurns: limitOrDefault(options.maxTurns, DEFAULTS.maxTurns),
    hooks: options.hooks ?? {},
    retries: options.retries ?? DEFAULTS.retries,
    retryBaseMs: options.retryBaseMs ?? DEFAULTS.retryBaseMs,
    timeoutMs: limitOrDefault(options.timeoutMs, DEFAULTS.timeoutMs),
    // Reserved keys are refused (and warned about) once, here, not on every request.
    requestParams: acceptedRequestParams(options.requestParams, logger),
    bodyTransform: options.bodyTransform,
    // Resolved per call, so a host that swaps globalThis.fetch later (test interceptors) is honoured.
    fetch: options.fetch ?? ((input, init) => globalThis.fetch(input, init)),
    logger,
    waitFor: options.waitFor,
    emit(event) {
      registry.record(event);
      options.onMetric?.(event);
    },
  };
  const store = options.store ?? createMemoryStore();

  /**
   * Run the loop as a stream; `save` runs before "done" is yielded, so a consumer that stops at
   * "done" still finds the transcript stored. Failures reach onError before the caller.
   */
  async function* events(call: LoopCall, save?: (result: RunResult) => Promise<void>): AsyncGenerator<StreamEvent, RunResult> {
    try {
      const result = yield* runLoop(settings, call);
      await save?.(result);
      yield { type: "done", result };
      return result;
    } catch (error) {
      if (error instanceof Error) options.onError?.(error);
      throw error;
    }
  }

  async function drain(call: LoopCall, save?: (result: RunResult) => Promise<void>): Promise<RunResult> {
    const iterator = events(call, save);
    for (;;) {
      const next = await iterator.next();
      if (next.done) return next.value;
    }
  }

  // An empty id is no id (SPEC client.memory.ask): nothing is loaded or saved under "".
  const conversation = (id: string | undefined) => (id === undefined || id === "" ? undefined : id);
  const saveAs = (id: string | undefined) => (id === undefined ? undefined : async (result: RunResult) => store.save(id, result.messages));

  return {
    run: (prompt, callOptions = {}) =>
      drain({ prompt, history: callOptions.history ?? [], toolkit: callOptions.toolkit, signal: callOptions.signal, stream: false }),
    async ask(prompt, { id: given, toolkit, signal }) {
      const id = conversation(given);
      const history = id ? ((await store.get(id)) ?? []) : [];
      return drain({ prompt, history, toolkit, signal, stream: false }, saveAs(id));
    },
    async *stream(prompt, callOptions = {}) {
      const { toolkit, signal } = callOptions;
      const id = conversation(callOptions.id);
      const history = callOptions.history ?? (id === undefined ? [] : ((await store.get(id)) ?? []));
      yield* events({ prompt, history, toolkit, signal, stream: true }, saveAs(id));
    },
    conversationStore: () => store,
    metrics: () => registry.render(),
  };
}
