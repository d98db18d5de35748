// The tool loop (SPEC.md client.loop.*, client.hooks.*, client.stream.events), written once for both
// styles and both modes: run consumes the same generator that stream hands out.
import type { Logger, ToolContext, ToolResult, ToolSet, WaitFor } from "../types.ts";
import { finalizeBody } from "./body.ts";
import { LLMStreamError } from "./errors.ts";
import type { MetricEvent } from "./metrics.ts";
import { readSseEvents } from "./sse.ts";
import type { StyleAdapter, TurnResult } from "./style.ts";
import { pendingOf, resolveSuspension } from "./suspension.ts";
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
  waitFor?: WaitFor;
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

/** A tool's metric event; a suspension is pending, never an error (client.suspension.not-an-error). */
function emitTool(settings: LoopSettings, toolkit: ToolSet | undefined, name: string, result: ToolResult, started: number): void {
  const pending = pendingOf(result) !== undefined;
  settings.emit({
    event: "tool",
    tool: name,
    source: sourceOf(toolkit, name),
    isError: pending ? false : result.isError,
    pending,
    ms: Date.now() - started,
  });
}

/** Execute a tool (with its context, on a retry), let afterTool replace the result, and count it. */
async function executeTool(
  settings: LoopSettings,
  toolkit: ToolSet | undefined,
  call: ToolCall,
  args: Record<string, unknown>,
  turn: number,
  context?: ToolContext,
): Promise<ToolResult> {
  const { name } = call;
  const started = Date.now();
  let result = toolkit ? await toolkit.execute(name, args, context) : { output: `Unknown tool: ${name}`, isError: true };
  // A suspension is no result yet: afterTool sees the resolved one (client.suspension.not-an-error).
  if (!pendingOf(result)) {
    const after = (await settings.hooks.afterTool?.({ name, args, result, id: call.id, turn })) ?? undefined;
    result = after?.result ?? result;
  }
  // Counted as the model sees it, afterTool's replacement included.
  emitTool(settings, toolkit, name, result, started);
  return result;
}

/** One tool call through beforeTool; `args` are those it ran with, which a suspended call's retry reuses. */
async function runTool(
  settings: LoopSettings,
  toolkit: ToolSet | undefined,
  call: ToolCall,
  turn: number,
): Promise<{ args: Record<string, unknown>; result: ToolResult }> {
  const started = Date.now();
  const before = (await settings.hooks.beforeTool?.({ name: call.name, args: call.args, turn })) ?? undefined;
  // A short-circuit is the hook's own result: afterTool only sees what a tool returned (client.hooks.after-tool).
  if (before?.result) {
    emitTool(settings, toolkit, call.name, before.result, started);
    return { args: call.args, result: before.result };
  }
  const args = before?.args ?? call.args;
  return { args, result: await executeTool(settings, toolkit, call, args, turn) };
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
      const ran = await runTool(settings, call.toolkit, toolCall, turn);
      tally.toolCalls += 1;
      let result = ran.result;
      const request = pendingOf(result);
      if (request) {
        // Announced before the host is asked, so a channel can show the link at once (client.suspension.stream).
        yield { type: "pending", request };
        const resolution = await resolveSuspension(request, settings.waitFor, (context) =>
          executeTool(settings, call.toolkit, toolCall, ran.args, turn, context),
        );
        if (resolution.halted) {
          // The halted call's placeholder is the turn's last result: the calls after it re-suspend on
          // resume, and the reference does not run them (client.suspension.halt-transcript).
          const answered = answer.toolCalls.slice(0, results.length + 1);
          messages = [...messages, ...style.toolResultMessages(answered, [...results, resolution.result])];
          return { text: request.prompt, usage, messages, status: "pending", pending: request };
        }
        result = resolution.result;
      }
      results.push(result);
      yield { type: "tool_result", id: toolCall.id, name: toolCall.name, output: result.output, isError: result.isError };
    }
    messages = [...messages, ...style.toolResultMessages(answer.toolCalls, results)];
  }
  // The caller yields "done" once it has saved the transcript (client.ts).
  return { text, usage, messages, status: "done" };
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
