// The tool loop (SPEC.md client.loop.*, client.hooks.*, client.stream.events), written once for both
// styles and both modes: run consumes the same generator that stream hands out.
import type { Logger, ToolResult, ToolSet } from "../types.ts";
import { finalizeBody } from "./body.ts";
import { LLMStreamError } from "./errors.ts";
import type { MetricEvent } from "./metrics.ts";
import { readSseEvents } from "./sse.ts";
import type { StyleAdapter, TurnResult } from "./style.ts";
import { postWithRetries, readTextBounded, type Attempt } from "./transport.ts";
import type { BodyTransform, FetchLike, Hooks, Message, RunResult, StreamEvent, ToolCall } from "./types.ts";

/** Everything a call needs, resolved once by createClient. */
export interface LoopSettings {
  style: StyleAdapter;
  url: string;
  headers: Record<string, string>;
  model: string;
  systemPrompt: string;
  maxTurns: number;
  hooks: Hooks;
  retries: number;
  retryBaseMs: number;
  timeoutMs: number;
  requestParams: Record<string, unknown>;
  bodyTransform?: BodyTransform;
  fetch: FetchLike;
  logger: Logger;
  /** Where metric events go: the client's registry and the host's onMetric (client.ts). */
  emit(event: MetricEvent): void;
}

export interface LoopCall {
  prompt: string;
  history: Message[];
  toolkit?: ToolSet;
  signal?: AbortSignal;
  stream: boolean;
}

/** The answer's JSON as the provider sent it: the style reads it, and afterLLM observes it raw. */
async function readJsonAnswer(attempt: Attempt): Promise<unknown> {
  const text = await readTextBounded(attempt.response, attempt.signal, attempt.abortError).catch((error: unknown) => {
    if (error instanceof Error && error.name.startsWith("LLM")) throw error;
    throw new LLMStreamError(`the connection was lost mid-answer (${(error as Error).message})`, { cause: error });
  });
  try {
    return JSON.parse(text);
  } catch {
    throw new LLMStreamError(`the answer is not JSON: ${JSON.stringify(text.slice(0, 200))}`);
  }
}

/** A tool's `source` label (client.metrics.tool): the toolkit's tool's own, "custom" for a name it does not have. */
const sourceOf = (toolkit: ToolSet | undefined, name: string) => toolkit?.tools().find((tool) => tool.name === name)?.source ?? "custom";

async function runTool(settings: LoopSettings, toolkit: ToolSet | undefined, call: ToolCall, turn: number): Promise<ToolResult> {
  const { name } = call;
  const started = Date.now();
  const before = (await settings.hooks.beforeTool?.({ name, args: call.args, turn })) ?? undefined;
  let result: ToolResult;
  // A short-circuit is the hook's own result: afterTool only sees what a tool returned (client.hooks.after-tool).
  if (before?.result) result = before.result;
  else {
    const args = before?.args ?? call.args;
    const executed = toolkit ? await toolkit.execute(name, args) : { output: `Unknown tool: ${name}`, isError: true };
    const after = (await settings.hooks.afterTool?.({ name, args, result: executed, id: call.id, turn })) ?? undefined;
    result = after?.result ?? executed;
  }
  // Counted as the model sees it, short-circuit or replacement included.
  settings.emit({
    event: "tool",
    tool: name,
    source: sourceOf(toolkit, name),
    isError: result.isError,
    pending: false,
    ms: Date.now() - started,
  });
  return result;
}

/** What a call has done so far, for its run event (client.metrics.run), on success or failure. */
interface Tally {
  turns: number;
  toolCalls: number;
  usage: { input: number; output: number };
}

/** One LLM call: the request, then the answer read whole or streamed (its text deltas yielded), and its llm event. */
async function* callLLM(
  settings: LoopSettings,
  call: LoopCall,
  body: string,
  deadline: number,
): AsyncGenerator<{ type: "text"; delta: string }, { answer: TurnResult; response: unknown }> {
  const started = Date.now();
  const llmEvent = (status: "ok" | "error", promptTokens: number, completionTokens: number) =>
    settings.emit({ event: "llm", model: settings.model, status, ms: Date.now() - started, promptTokens, completionTokens });
  let answer: TurnResult;
  let response: unknown;
  try {
    // Retries are inside the one call: one llm event, however many attempts (client.metrics.llm).
    const attempt = await postWithRetries(settings.url, body, { ...settings, signal: call.signal, deadline });
    if (call.stream) {
      const deltas = settings.style.readStream(readSseEvents(attempt));
      try {
        for (;;) {
          const next = await deltas.next();
          if (next.done) {
            answer = next.value;
            break;
          }
          yield { type: "text", delta: next.value };
        }
      } finally {
        // A consumer leaving mid-stream closes the reader (and so the connection) behind it.
        await deltas.return(undefined as never);
      }
      // A stream has no one raw payload: afterLLM is told so (decision 46).
      response = { streamed: true };
    } else {
      response = await readJsonAnswer(attempt);
      answer = settings.style.parseResponse(response);
    }
  } catch (error) {
    llmEvent("error", 0, 0);
    throw error;
  }
  llmEvent("ok", answer.usage.input, answer.usage.output);
  return { answer, response };
}

async function* turns(
  settings: LoopSettings,
  call: LoopCall,
  tally: Tally,
): AsyncGenerator<Exclude<StreamEvent, { type: "done" }>, RunResult> {
  const { style, hooks } = settings;
  let messages = style.initialMessages(settings.systemPrompt, call.history, call.prompt);
  let tools = style.toolList(call.toolkit);
  const usage = tally.usage;
  let text = "";
  // SPEC.md client.timeout: one deadline for the whole call, every turn's request, retry and wait.
  const deadline = Date.now() + settings.timeoutMs;
  for (let turn = 0; turn < settings.maxTurns; turn++) {
    tally.turns += 1;
    const replacement = await hooks.beforeLLM?.({ messages, tools, model: settings.model, turn });
    // A replacement persists for the rest of the run (SPEC.md client.hooks.before-llm).
    if (replacement?.messages) messages = replacement.messages;
    if (replacement?.tools) tools = replacement.tools;
    const base = style.baseBody({ model: settings.model, systemPrompt: settings.systemPrompt, messages, tools, stream: call.stream });
    const body = await finalizeBody(base, settings.requestParams, settings.bodyTransform);
    const { answer, response } = yield* callLLM(settings, call, body, deadline);
    usage.input += answer.usage.input;
    usage.output += answer.usage.output;
    yield { type: "usage", ...answer.usage };
    await hooks.afterLLM?.({ response, model: settings.model, turn });
    text = answer.text;
    messages = [...messages, answer.assistantMessage];
    if (!answer.wantsToolResults) break;
    const results: ToolResult[] = [];
    for (const toolCall of answer.toolCalls) {
      yield { type: "tool_call", ...toolCall };
      const result = await runTool(settings, call.toolkit, toolCall, turn);
      tally.toolCalls += 1;
      results.push(result);
      yield { type: "tool_result", id: toolCall.id, name: toolCall.name, output: result.output, isError: result.isError };
    }
    messages = [...messages, ...style.toolResultMessages(answer.toolCalls, results)];
  }
  // The caller yields "done" once it has saved the transcript (client.ts).
  return { text, usage, messages };
}

/** The call's turns, then its one run event: ended by an answer, or by the error it fails with (client.metrics.run). */
export async function* runLoop(settings: LoopSettings, call: LoopCall): AsyncGenerator<Exclude<StreamEvent, { type: "done" }>, RunResult> {
  const started = Date.now();
  const tally: Tally = { turns: 0, toolCalls: 0, usage: { input: 0, output: 0 } };
  const runEvent = (failure: { error?: string }) =>
    settings.emit({
      event: "run",
      model: settings.model,
      turns: tally.turns,
      toolCalls: tally.toolCalls,
      totalTokens: tally.usage.input + tally.usage.output,
      ms: Date.now() - started,
      ...failure,
    });
  try {
    const result = yield* turns(settings, call, tally);
    runEvent({});
    return result;
  } catch (error) {
    runEvent({ error: error instanceof Error ? error.message : String(error) });
    throw error;
  }
}
