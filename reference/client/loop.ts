// The tool loop (SPEC.md client.loop.*, client.hooks.*, client.stream.events), written once for both
// styles and both modes: run consumes the same generator that stream hands out.
import type { Logger, ToolResult, ToolSet } from "../types.ts";
import { finalizeBody } from "./body.ts";
import { LLMStreamError } from "./errors.ts";
import { readSseEvents } from "./sse.ts";
import type { StyleAdapter, TurnResult } from "./style.ts";
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

async function runTool(
  settings: LoopSettings,
  toolkit: ToolSet | undefined,
  name: string,
  args: Record<string, unknown>,
  turn: number,
): Promise<ToolResult> {
  const before = (await settings.hooks.beforeTool?.({ name, args, turn })) ?? undefined;
  if (before?.result) return before.result;
  const effectiveArgs = before?.args ?? args;
  const result = toolkit ? await toolkit.execute(name, effectiveArgs) : { output: `Unknown tool: ${name}`, isError: true };
  return (await settings.hooks.afterTool?.({ name, args: effectiveArgs, result })) ?? result;
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
      const result = await runTool(settings, call.toolkit, toolCall.name, toolCall.args, turn);
      results.push(result);
      yield { type: "tool_result", id: toolCall.id, name: toolCall.name, output: result.output, isError: result.isError };
    }
    messages = [...messages, ...style.toolResultMessages(answer.toolCalls, results)];
  }
  // The caller yields "done" once it has saved the transcript (client.ts).
  return { text, usage, messages };
}
