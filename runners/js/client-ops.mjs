// client.* and store.* operations on the port's unified client (runners/PROTOCOL.md#operations).
import { ContractError, capturingWarnings, jsonCopy, requireHandle } from "./common.mjs";
import { toolkitForClient } from "./toolkit-ops.mjs";

// The port refuses to run without an API key and otherwise reads OPENROUTER_API_KEY /
// OPENAI_API_KEY / ANTHROPIC_API_KEY from the environment (client.ts:229-239, resolveKey). The
// harness's mock LLM needs none, and a developer's real key must never reach a fixture's request log,
// so a client created without `apiKey` gets this placeholder instead of the environment's key.
export const PLACEHOLDER_API_KEY = "conformance-placeholder-key";

function decodeBody(body) {
  if (typeof body !== "string") return body ?? null;
  try {
    return JSON.parse(body);
  } catch {
    return body;
  }
}

/** `bodyTransform` as data: record a deep copy of the body the port hands over, then return null
 * (returnNull: the port's "falsy => unchanged") or the body with the RFC 6902 patch applied. */
function bodyTransformFor(data, entry, jsonPatch) {
  return (body) => {
    entry.transformInputs.push(structuredClone(body));
    // The turn: transform calls since the call began (the port runs it once per LLM request).
    const turn = entry.turn++;
    if (data.onTurns && !data.onTurns.includes(turn)) return body;
    if (data.inPlace && data.patch) {
      // inPlace: the patched document's keys replace the received object's own, so the edit lives in it.
      const patched = jsonPatch.applyPatch(structuredClone(body), structuredClone(data.patch), true, false).newDocument;
      for (const key of Object.keys(body)) delete body[key];
      Object.assign(body, patched);
    }
    if (data.returnNull) return null;
    if (!data.patch || data.inPlace) return body;
    return jsonPatch.applyPatch(body, structuredClone(data.patch), true, false).newDocument;
  };
}

/** `abortAfterMs` (client.cancel): the call's `signal` (client.ts run/ask/stream ctx) aborts that many ms in. */
async function withCancel(input, call) {
  if (typeof input.abortAfterMs !== "number") return call(undefined);
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(), input.abortAfterMs);
  try {
    return await call(controller.signal);
  } finally {
    clearTimeout(timer);
  }
}

function hooksFor(data, entry) {
  const hooks = {};
  const { beforeLLM, beforeTool } = data;
  if (beforeLLM) {
    hooks.beforeLLM = ({ messages, tools, turn }) => {
      entry.hookCalls.push({ hook: "beforeLLM", input: { turn, messageCount: messages.length, toolCount: tools.length } });
      const onThisTurn = beforeLLM.onTurns === undefined || beforeLLM.onTurns.includes(turn);
      return beforeLLM.setTools && onThisTurn ? { tools: structuredClone(beforeLLM.setTools) } : undefined;
    };
  }
  if (beforeTool) {
    hooks.beforeTool = ({ name, args }) => {
      entry.hookCalls.push({ hook: "beforeTool", input: { name, args: jsonCopy(args ?? {}) } });
      if (beforeTool.result) return { result: { output: beforeTool.result.output, isError: beforeTool.result.isError } };
      if (beforeTool.args) return { args: structuredClone(beforeTool.args) };
      return undefined;
    };
  }
  return hooks;
}

/** The port's `fetch` option (its HTTP client seam for LLM calls): record, then the real fetch. */
function recordingFetch(entry) {
  return (url, init = {}) => {
    entry.transportRequests.push({ method: init.method ?? "GET", url: String(url), body: decodeBody(init.body) });
    return globalThis.fetch(url, init);
  };
}

const usageOf = (usage) => ({ input: usage?.promptTokens ?? 0, output: usage?.completionTokens ?? 0 });

const runResult = (result) => ({ text: result.text, usage: usageOf(result.usage), messages: jsonCopy(result.messages ?? []) });

/** Protocol events: the port's text / tool_call / tool_result as they came, its usage event (the
 * call's running total, yielded once before done: client.ts:968, 1059) as one usage event with the
 * call's totals just before done, and done without its payload. `pending` (a §10 suspension) has
 * no protocol event; no scenario provokes one. */
function normalizeEvents(events) {
  const out = [];
  let usage;
  for (const event of events) {
    if (event.type === "text") out.push({ type: "text", delta: event.delta });
    else if (event.type === "tool_call") out.push({ type: "tool_call", id: event.id, name: event.name, args: jsonCopy(event.args ?? {}) });
    else if (event.type === "tool_result") {
      out.push({ type: "tool_result", id: event.id, name: event.name, output: event.output, isError: event.isError });
    } else if (event.type === "usage") usage = usageOf(event.usage);
    else if (event.type === "done") {
      if (usage) out.push({ type: "usage", ...usage });
      out.push({ type: "done" });
    }
  }
  return out;
}

export function clientOps(port, helpers) {
  const entryOf = (session, input) => requireHandle(session.clients, input.client, "client");
  /** The client of a run, ask or stream: a new call starts at turn 0. */
  const callEntry = (session, input) => Object.assign(entryOf(session, input), { turn: 0 });

  return {
    async "client.create"(input, session) {
      const handle = String(input.handle);
      if (session.clients.has(handle)) throw new ContractError("other", `client "${handle}" already exists`);
      const entry = {
        client: undefined,
        warnings: [],
        transformInputs: [],
        hookCalls: [],
        transportRequests: [],
        providedStore: undefined,
        turn: 0,
      };
      if (input.store === "provided") entry.providedStore = new port.InMemoryConversationStore();
      const options = {
        baseUrl: input.baseUrl,
        style: input.style,
        model: input.model,
        apiKey: input.apiKey || PLACEHOLDER_API_KEY,
      };
      for (const key of ["headers", "systemPrompt", "maxTurns", "retries", "retryBaseMs", "timeoutMs", "requestParams"]) {
        if (input[key] !== undefined) options[key] = structuredClone(input[key]);
      }
      if (input.bodyTransform) options.bodyTransform = bodyTransformFor(input.bodyTransform, entry, helpers.jsonPatch);
      if (input.hooks) options.hooks = hooksFor(input.hooks, entry);
      if (input.transport === "recording") options.fetch = recordingFetch(entry);
      if (entry.providedStore) options.store = entry.providedStore;
      entry.client = await capturingWarnings(entry.warnings, () => port.createClient(options));
      session.clients.set(handle, entry);
      return {};
    },

    async "client.run"(input, session) {
      const entry = callEntry(session, input);
      const toolkit = await toolkitForClient(session, input, port);
      const history = input.history === undefined ? undefined : structuredClone(input.history);
      const result = await withCancel(input, (signal) =>
        capturingWarnings(entry.warnings, () => entry.client.run(String(input.prompt), { toolkit, history, signal })),
      );
      return runResult(result);
    },

    async "client.ask"(input, session) {
      const entry = callEntry(session, input);
      const toolkit = await toolkitForClient(session, input, port);
      const result = await withCancel(input, (signal) =>
        capturingWarnings(entry.warnings, () => entry.client.ask(String(input.prompt), { toolkit, id: String(input.id), signal })),
      );
      return runResult(result);
    },

    async "client.stream"(input, session) {
      const entry = callEntry(session, input);
      const toolkit = await toolkitForClient(session, input, port);
      const id = input.id === undefined ? undefined : String(input.id);
      const events = [];
      await withCancel(input, (signal) =>
        capturingWarnings(entry.warnings, async () => {
          for await (const event of entry.client.stream(String(input.prompt), { toolkit, id, signal })) events.push(event);
        }),
      );
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
        transformInputs: jsonCopy(entry.transformInputs),
        hookCalls: jsonCopy(entry.hookCalls),
        warnings: [...entry.warnings],
        transportRequests: jsonCopy(entry.transportRequests),
        storeAccessor,
      };
    },

    async "store.get"(input, session) {
      const messages = await entryOf(session, input).client.conversationStore().get(String(input.id));
      return { messages: messages === undefined || messages === null ? null : jsonCopy(messages) };
    },

    async "store.save"(input, session) {
      await entryOf(session, input).client.conversationStore().save(String(input.id), structuredClone(input.messages));
      return {};
    },
  };
}
