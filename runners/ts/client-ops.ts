// client.* and store.* operations on the reference (runners/PROTOCOL.md#operations).
import jsonPatch, { type Operation } from "fast-json-patch";
import {
  createClient,
  createMemoryStore,
  type Client,
  type ClientOptions,
  type ConversationStore,
  type FetchLike,
  type Hooks,
  type Request,
  type MetricEvent,
  type RunResult,
  type StreamEvent,
} from "../../reference/index.ts";
import type { ClientObservationsOutput, Event } from "../protocol/operations.types.ts";
import type { OperationInput, OperationName } from "../protocol/protocol.ts";
import { ContractError } from "./errors.ts";
import { requireHandle, type OpHandlers, type Session } from "./session.ts";
import { scriptedWaitFor } from "./scripted-wait-for.ts";
import { toolkitFor } from "./toolkit-ops.ts";

/** What client.observations reports about a client, filled in by the instruments installed on it. */
interface ClientRecord extends Omit<ClientObservationsOutput, "storeAccessor" | "waitForCalls"> {
  /** Every Request the scripted waitFor received (client.observations waitForCalls). */
  waitForCalls: Request[];
  /** The store passed with `store: "provided"`, to check the accessor returns that very instance. */
  providedStore?: ConversationStore;
  /** Body transform calls in the current call: the turn (the transform runs once per LLM request). */
  turn: number;
}

/** A client handle: the client and its record. */
export interface ClientEntry extends ClientRecord {
  client: Client;
}

type BodyTransformData = NonNullable<OperationInput<"client.create">["bodyTransform"]>;
type HooksData = NonNullable<OperationInput<"client.create">["hooks"]>;

function decodeBody(body: unknown): unknown {
  if (typeof body !== "string") return body ?? null;
  try {
    return JSON.parse(body);
  } catch {
    return body;
  }
}

function bodyTransformFromData(data: BodyTransformData, entry: ClientRecord): ClientOptions["bodyTransform"] {
  return (body) => {
    entry.transformInputs.push(structuredClone(body));
    const turn = entry.turn++;
    // Not on this turn: the body goes out as built (a multi-turn capture patched one turn only).
    if (data.onTurns && !data.onTurns.includes(turn)) return body;
    if (data.inPlace && data.patch) {
      // The patched document's keys replace the received object's own, so the edit lives in that object.
      const patched = jsonPatch.applyPatch(structuredClone(body), data.patch as Operation[], true, false).newDocument;
      for (const key of Object.keys(body)) delete body[key];
      Object.assign(body, patched);
    }
    if (data.returnNull) return null;
    if (!data.patch || data.inPlace) return body;
    // The schema's patch operation is RFC 6902's; fast-json-patch types each op separately.
    return jsonPatch.applyPatch(body, data.patch as Operation[], true, true).newDocument;
  };
}

function hooksFromData(data: HooksData, entry: ClientRecord): Hooks {
  const hooks: Hooks = {};
  const { beforeLLM, beforeTool, afterLLM, afterTool } = data;
  if (beforeLLM) {
    hooks.beforeLLM = ({ messages, tools, turn }) => {
      entry.hookCalls.push({ hook: "beforeLLM", input: { turn, messageCount: messages.length, toolCount: tools.length } });
      const onThisTurn = beforeLLM.onTurns === undefined || beforeLLM.onTurns.includes(turn);
      return beforeLLM.setTools && onThisTurn ? { tools: structuredClone(beforeLLM.setTools) } : undefined;
    };
  }
  if (beforeTool) {
    hooks.beforeTool = ({ name, args }) => {
      entry.hookCalls.push({ hook: "beforeTool", input: { name, args: structuredClone(args) } });
      if (beforeTool.result) {
        const { pending, ...result } = beforeTool.result;
        // A result carrying `pending` is a suspension raised by the hook (SPEC client.suspension.before-tool).
        return { result: pending ? { ...result, metadata: { pending: structuredClone(pending) } } : result };
      }
      if (beforeTool.args) return { args: structuredClone(beforeTool.args) };
      return undefined;
    };
  }
  if (afterLLM) {
    hooks.afterLLM = ({ response, model, turn }) => {
      entry.hookCalls.push({ hook: "afterLLM", input: { turn, model, response: structuredClone(response) } });
    };
  }
  if (afterTool) {
    hooks.afterTool = ({ name, args, result }) => {
      entry.hookCalls.push({
        hook: "afterTool",
        input: { name, args: structuredClone(args), result: { output: result.output, isError: result.isError } },
      });
      const onThisTool = afterTool.onTools === undefined || afterTool.onTools.includes(name);
      return afterTool.result && onThisTool ? { result: { ...afterTool.result } } : undefined;
    };
  }
  return hooks;
}

/** The onMetric sink of `onMetric: true`: the reference's events already have the protocol's keys (PROTOCOL.md client.observations). */
const recordMetric = (events: MetricEvent[]) => (event: MetricEvent) => events.push({ ...event });

/** The injected transport of `transport: "recording"`: record, then hand over to the real fetch. */
function recordingFetch(entry: ClientRecord): FetchLike {
  return (url, init) => {
    entry.transportRequests.push({ method: init.method ?? "GET", url, body: decodeBody(init.body) });
    return globalThis.fetch(url, init);
  };
}

const entryOf = (session: Session, input: { client: string }) => requireHandle<ClientEntry>(session.clients, input.client, "client");

/** The client of a run, ask or stream: a new call starts at turn 0. */
const callEntry = (session: Session, input: { client: string }) => {
  const entry = entryOf(session, input);
  entry.turn = 0;
  return entry;
};

const toolkitOf = (session: Session, input: { toolkit?: string }) =>
  input.toolkit === undefined ? undefined : toolkitFor(session, input.toolkit);

const runResult = (result: RunResult) => ({
  text: result.text,
  usage: { ...result.usage },
  messages: result.messages,
  status: result.status,
  ...(result.pending ? { pending: result.pending } : {}),
});

/** Protocol events: `done` without its payload, and one usage event with the call's totals before it. */
function normalizeEvents(events: StreamEvent[]): Event[] {
  const usage = { input: 0, output: 0 };
  let sawUsage = false;
  const normalized: Event[] = [];
  for (const event of events) {
    if (event.type === "usage") {
      sawUsage = true;
      usage.input += event.input;
      usage.output += event.output;
    } else if (event.type === "done") {
      if (sawUsage) normalized.push({ type: "usage", ...usage });
      normalized.push({ type: "done" });
    } else {
      normalized.push({ ...event });
    }
  }
  return normalized;
}

/** `abortAfterMs`: the call gets a signal that aborts that many ms after it starts (capability client.cancel). */
async function withCancel<T>(input: { abortAfterMs?: number }, call: (signal: AbortSignal | undefined) => Promise<T>): Promise<T> {
  if (typeof input.abortAfterMs !== "number") return call(undefined);
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(), input.abortAfterMs);
  try {
    return await call(controller.signal);
  } finally {
    clearTimeout(timer);
  }
}

/** A client's record before anything was observed (client.create's and client.create-in-process's). */
export function newClientRecord(): ClientRecord {
  return { warnings: [], transformInputs: [], hookCalls: [], transportRequests: [], waitForCalls: [], turn: 0 };
}

// client.create-in-process is in-process-ops.ts's.
type ClientOpName = Exclude<Extract<OperationName, `client.${string}` | `store.${string}`>, "client.create-in-process">;

export const clientOps: OpHandlers<ClientOpName> = {
  async "client.create"(input, session) {
    const handle = input.handle;
    if (session.clients.has(handle)) throw new ContractError("other", `client "${handle}" already exists`);
    const entry = newClientRecord();
    if (input.store === "provided") entry.providedStore = createMemoryStore();
    if (input.onMetric) entry.metricEvents = [];
    const client = createClient({
      baseUrl: input.baseUrl,
      style: input.style,
      model: input.model,
      apiKey: input.apiKey,
      headers: input.headers,
      systemPrompt: input.systemPrompt,
      maxTurns: input.maxTurns,
      retries: input.retries,
      retryBaseMs: input.retryBaseMs,
      timeoutMs: input.timeoutMs,
      requestParams: input.requestParams,
      bodyTransform: input.bodyTransform ? bodyTransformFromData(input.bodyTransform, entry) : undefined,
      hooks: input.hooks ? hooksFromData(input.hooks, entry) : undefined,
      fetch: input.transport === "recording" ? recordingFetch(entry) : undefined,
      store: entry.providedStore,
      logger: { warn: (message) => entry.warnings.push(message) },
      waitFor: input.waitFor ? scriptedWaitFor(input.waitFor, entry.waitForCalls) : undefined,
      onMetric: entry.metricEvents ? recordMetric(entry.metricEvents) : undefined,
    });
    // The same object the instruments hold: the turn counter is shared with the body transform.
    session.clients.set(handle, Object.assign(entry, { client }) satisfies ClientEntry);
    return {};
  },
  async "client.run"(input, session) {
    return withCancel(input, (signal) =>
      callEntry(session, input)
        .client.run(input.prompt, { toolkit: toolkitOf(session, input), history: input.history, signal })
        .then(runResult),
    );
  },
  async "client.ask"(input, session) {
    return withCancel(input, (signal) =>
      callEntry(session, input)
        .client.ask(input.prompt, { toolkit: toolkitOf(session, input), id: input.id, signal })
        .then(runResult),
    );
  },
  async "client.stream"(input, session) {
    const events: StreamEvent[] = [];
    await withCancel(input, async (signal) => {
      for await (const event of callEntry(session, input).client.stream(input.prompt, {
        toolkit: toolkitOf(session, input),
        id: input.id,
        history: input.history,
        signal,
      })) {
        events.push(event);
      }
    });
    const done = events.find((event) => event.type === "done");
    if (!done) throw new ContractError("other", "the stream ended without a done event");
    return { ...runResult(done.result), events: normalizeEvents(events) };
  },
  async "client.observations"(input, session) {
    const entry = entryOf(session, input);
    const accessor = entry.client.conversationStore();
    const usable = typeof accessor?.get === "function" && typeof accessor?.save === "function";
    const storeAccessor = entry.providedStore
      ? accessor === entry.providedStore
        ? "provided"
        : "missing"
      : usable
        ? "default"
        : "missing";
    return {
      transformInputs: structuredClone(entry.transformInputs),
      hookCalls: structuredClone(entry.hookCalls),
      warnings: [...entry.warnings],
      transportRequests: structuredClone(entry.transportRequests),
      storeAccessor,
      waitForCalls: structuredClone(entry.waitForCalls),
      ...(entry.metricEvents ? { metricEvents: structuredClone(entry.metricEvents) } : {}),
      // An in-process client's generate (client.create-in-process) records what it was handed.
      ...(entry.generateRequests ? { generateRequests: structuredClone(entry.generateRequests) } : {}),
    };
  },
  async "client.metrics"(input, session) {
    return { text: entryOf(session, input).client.metrics() };
  },
  async "store.get"(input, session) {
    const messages = await entryOf(session, input).client.conversationStore().get(input.id);
    return { messages: messages ?? null };
  },
  async "store.save"(input, session) {
    await entryOf(session, input).client.conversationStore().save(input.id, input.messages);
    return {};
  },
};
