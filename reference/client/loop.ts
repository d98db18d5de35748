// The tool loop (SPEC.md client.loop.*, client.hooks.*, client.stream.events), written once for both
// styles and both modes: run consumes the same generator that stream hands out.
import type { Logger, ToolContext, ToolResult, ToolSet } from "../types.ts";
import { finalizeBody } from "./body.ts";
import { LLMStreamError } from "./errors.ts";
import { readSseEvents } from "./sse.ts";
import type { StyleAdapter, TurnResult } from "./style.ts";
import { pendingOf, resolveSuspension, type WaitFor } from "./suspension.ts";
import { postWithRetries, readTextBounded, type Attempt } from "./transport.ts";
import type { BodyTransform, FetchLike, Hooks, Message, RunResult, StreamEvent } from "./types.ts";

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
  waitFor?: WaitFor;
}

export interface LoopCall {
  prompt: string;
  history: Message[];
  toolkit?: ToolSet;
  signal?: AbortSignal;
  stream: boolean;
}

async function parseJsonAnswer(style: StyleAdapter, attempt: Attempt): Promise<TurnResult> {
  const text = await readTextBounded(attempt.response, attempt.signal, attempt.abortError).catch((error: unknown) => {
    if (error instanceof Error && error.name.startsWith("LLM")) throw error;
    throw new LLMStreamError(`the connection was lost mid-answer (${(error as Error).message})`, { cause: error });
  });
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    throw new LLMStreamError(`the answer is not JSON: ${JSON.stringify(text.slice(0, 200))}`);
  }
  return style.parseResponse(json);
}

/** Execute a tool (with its context, on a retry) and let afterTool replace the result. */
async function executeTool(
  settings: LoopSettings,
  toolkit: ToolSet | undefined,
  name: string,
  args: Record<string, unknown>,
  context?: ToolContext,
): Promise<ToolResult> {
  const result = toolkit ? await toolkit.execute(name, args, context) : { output: `Unknown tool: ${name}`, isError: true };
  // A suspension is no result yet: afterTool sees the resolved one (client.suspension.not-an-error).
  if (pendingOf(result)) return result;
  return (await settings.hooks.afterTool?.({ name, args, result })) ?? result;
}

/** One tool call through beforeTool; `args` are those it ran with, which a suspended call's retry reuses. */
async function runTool(
  settings: LoopSettings,
  toolkit: ToolSet | undefined,
  name: string,
  args: Record<string, unknown>,
  turn: number,
): Promise<{ args: Record<string, unknown>; result: ToolResult }> {
  const before = (await settings.hooks.beforeTool?.({ name, args, turn })) ?? undefined;
  if (before?.result) return { args, result: before.result };
  const effectiveArgs = before?.args ?? args;
  return { args: effectiveArgs, result: await executeTool(settings, toolkit, name, effectiveArgs) };
}

export async function* runLoop(settings: LoopSettings, call: LoopCall): AsyncGenerator<Exclude<StreamEvent, { type: "done" }>, RunResult> {
  const { style, hooks } = settings;
  let messages = style.initialMessages(settings.systemPrompt, call.history, call.prompt);
  let tools = style.toolList(call.toolkit);
  const usage = { input: 0, output: 0 };
  let text = "";
  // SPEC.md client.timeout: one deadline for the whole call, every turn's request, retry and wait.
  const deadline = Date.now() + settings.timeoutMs;
  for (let turn = 0; turn < settings.maxTurns; turn++) {
    const replacement = await hooks.beforeLLM?.({ messages, tools, model: settings.model, turn });
    // A replacement persists for the rest of the run (SPEC.md client.hooks.before-llm).
    if (replacement?.messages) messages = replacement.messages;
    if (replacement?.tools) tools = replacement.tools;
    const base = style.baseBody({ model: settings.model, systemPrompt: settings.systemPrompt, messages, tools, stream: call.stream });
    const body = await finalizeBody(base, settings.requestParams, settings.bodyTransform);
    const attempt = await postWithRetries(settings.url, body, { ...settings, signal: call.signal, deadline });
    let answer: TurnResult;
    if (call.stream) {
      const deltas = style.readStream(readSseEvents(attempt));
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
    } else {
      answer = await parseJsonAnswer(style, attempt);
    }
    usage.input += answer.usage.input;
    usage.output += answer.usage.output;
    yield { type: "usage", ...answer.usage };
    await hooks.afterLLM?.({ turn, text: answer.text, toolCalls: answer.toolCalls, usage: answer.usage });
    text = answer.text;
    messages = [...messages, answer.assistantMessage];
    if (!answer.wantsToolResults) break;
    const results: ToolResult[] = [];
    for (const toolCall of answer.toolCalls) {
      yield { type: "tool_call", ...toolCall };
      const ran = await runTool(settings, call.toolkit, toolCall.name, toolCall.args, turn);
      let result = ran.result;
      const request = pendingOf(result);
      if (request) {
        // Announced before the host is asked, so a channel can show the link at once (client.suspension.stream).
        yield { type: "pending", request };
        const resolution = await resolveSuspension(request, settings.waitFor, (context) =>
          executeTool(settings, call.toolkit, toolCall.name, ran.args, context),
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
