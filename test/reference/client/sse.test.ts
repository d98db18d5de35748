// SSE parsing of both styles, fed from in-memory bodies split at awkward places.
import { describe, expect, it } from "vitest";
import { LLMStreamError, readSseEvents } from "../../../reference/index.ts";
import { anthropicStyle } from "../../../reference/client/anthropic.ts";
import { openaiStyle } from "../../../reference/client/openai.ts";
import type { TurnResult } from "../../../reference/client/style.ts";

/** A fetch-like attempt whose body delivers `chunks` one by one. */
function attemptOf(chunks: string[]) {
  const encoder = new TextEncoder();
  const body = new ReadableStream<Uint8Array>({
    start(controller) {
      for (const chunk of chunks) controller.enqueue(encoder.encode(chunk));
      controller.close();
    },
  });
  const signal = new AbortController().signal;
  return { response: new Response(body), signal, abortError: () => new Error("aborted") as never };
}

async function drain(style: typeof openaiStyle, chunks: string[]): Promise<{ deltas: string[]; turn: TurnResult }> {
  const generator = style.readStream(readSseEvents(attemptOf(chunks)));
  const deltas: string[] = [];
  for (;;) {
    const next = await generator.next();
    if (next.done) return { deltas, turn: next.value };
    deltas.push(next.value);
  }
}

const data = (value: unknown) => `data: ${JSON.stringify(value)}\n\n`;
const choice = (delta: unknown, finish: string | null = null) => data({ choices: [{ index: 0, delta, finish_reason: finish }] });
const event = (type: string, value: Record<string, unknown>) => `event: ${type}\ndata: ${JSON.stringify({ type, ...value })}\n\n`;

describe("readSseEvents", () => {
  it("yields events split across chunks, mid-line and mid-character", async () => {
    const text = 'data: {"a":"é"}\n\nevent: x\ndata: 2\n\n';
    const bytes = new TextEncoder().encode(text);
    const cut = bytes.indexOf(0xa9); // the second byte of "é": the decoder must not split the character
    const body = new ReadableStream<Uint8Array>({
      start(controller) {
        controller.enqueue(bytes.slice(0, 5));
        controller.enqueue(bytes.slice(5, cut));
        controller.enqueue(bytes.slice(cut));
        controller.close();
      },
    });
    const events = [];
    for await (const e of readSseEvents({
      response: new Response(body),
      signal: new AbortController().signal,
      abortError: () => new Error() as never,
    }))
      events.push(e);
    expect(events.map((e) => [e.event, e.data])).toEqual([
      [undefined, '{"a":"é"}'],
      ["x", "2"],
    ]);
  });

  it("ignores lines EventSource ignores: unknown fields, comments, a retry that is not a number (client.stream.sse-lines)", async () => {
    const events = [];
    for await (const e of readSseEvents(attemptOf(["data: 1\n\n", "garbage line\n: note\nretry: soon\n\n", "data: 2\n\n"])))
      events.push(e.data);
    expect(events).toEqual(["1", "2"]);
  });
});

describe("openai stream", () => {
  it("merges tool-call fragments by index and reads the usage chunk", async () => {
    const { deltas, turn } = await drain(openaiStyle, [
      choice({ role: "assistant", content: "" }),
      choice({ content: "hel" }),
      choice({ content: "lo" }),
      choice({ tool_calls: [{ index: 1, id: "b", type: "function", function: { name: "second", arguments: "" } }] }),
      choice({ tool_calls: [{ index: 0, id: "a", type: "function", function: { name: "first", arguments: '{"x"' } }] }),
      choice({ tool_calls: [{ index: 1, function: { arguments: "{}" } }] }),
      choice({ tool_calls: [{ index: 0, function: { arguments: ":1}" } }] }),
      choice({}, "tool_calls"),
      data({ choices: [], usage: { prompt_tokens: 7, completion_tokens: 3 } }),
      "data: [DONE]\n\n",
    ]);
    expect(deltas).toEqual(["hel", "lo"]);
    expect(turn.text).toBe("hello");
    expect(turn.toolCalls).toEqual([
      { id: "a", name: "first", args: { x: 1 } },
      { id: "b", name: "second", args: {} },
    ]);
    expect(turn.usage).toEqual({ input: 7, output: 3 });
    expect(turn.wantsToolResults).toBe(true);
  });

  it("fails on broken JSON data and on a stream cut before [DONE]; a stream of no choices is an empty answer", async () => {
    await expect(drain(openaiStyle, [choice({ content: "a" }), 'data: {"choices":[\n\n', "data: [DONE]\n\n"])).rejects.toBeInstanceOf(
      LLMStreamError,
    );
    await expect(drain(openaiStyle, [choice({ content: "a" })])).rejects.toBeInstanceOf(LLMStreamError);
    expect((await drain(openaiStyle, ["data: [DONE]\n\n"])).turn).toMatchObject({ text: "", toolCalls: [] });
  });

  it("fails on an answer that finished without [DONE] (the usage chunk would be lost)", async () => {
    await expect(drain(openaiStyle, [choice({ content: "done" }, "stop")])).rejects.toBeInstanceOf(LLMStreamError);
    const { turn } = await drain(openaiStyle, [choice({ content: "done" }, "stop"), "data: [DONE]\n\n"]);
    expect(turn.text).toBe("done");
  });
});

describe("anthropic stream", () => {
  const start = event("message_start", { message: { usage: { input_tokens: 11, output_tokens: 1 } } });

  it("assembles text and tool_use blocks and continues only on stop_reason tool_use", async () => {
    const chunks = (stopReason: string) => [
      start,
      event("content_block_start", { index: 0, content_block: { type: "text", text: "" } }),
      event("content_block_delta", { index: 0, delta: { type: "text_delta", text: "Hi" } }),
      event("content_block_stop", { index: 0 }),
      event("content_block_start", { index: 1, content_block: { type: "tool_use", id: "t1", name: "echo", input: {} } }),
      event("content_block_delta", { index: 1, delta: { type: "input_json_delta", partial_json: '{"q":' } }),
      event("content_block_delta", { index: 1, delta: { type: "input_json_delta", partial_json: '"v"}' } }),
      event("content_block_stop", { index: 1 }),
      event("message_delta", { delta: { stop_reason: stopReason }, usage: { output_tokens: 9 } }),
      event("message_stop", {}),
    ];
    const { deltas, turn } = await drain(anthropicStyle, chunks("tool_use"));
    expect(deltas).toEqual(["Hi"]);
    expect(turn.toolCalls).toEqual([{ id: "t1", name: "echo", args: { q: "v" } }]);
    expect(turn.usage).toEqual({ input: 11, output: 9 });
    expect(turn.assistantMessage).toEqual({
      role: "assistant",
      content: [
        { type: "text", text: "Hi" },
        { type: "tool_use", id: "t1", name: "echo", input: { q: "v" } },
      ],
    });
    expect(turn.wantsToolResults).toBe(true);
    expect((await drain(anthropicStyle, chunks("end_turn"))).turn.wantsToolResults).toBe(false);
  });

  it("rebuilds thinking blocks from their deltas, keeps redacted ones whole, and ignores unknown delta types", async () => {
    const { deltas, turn } = await drain(anthropicStyle, [
      start,
      event("content_block_start", { index: 0, content_block: { type: "thinking", thinking: "" } }),
      event("content_block_delta", { index: 0, delta: { type: "thinking_delta", thinking: "plan " } }),
      event("content_block_delta", { index: 0, delta: { type: "thinking_delta", thinking: "it" } }),
      event("content_block_delta", { index: 0, delta: { type: "citations_delta", citation: { cited_text: "x" } } }),
      event("content_block_delta", { index: 0, delta: { type: "signature_delta", signature: "c2ln" } }),
      event("content_block_stop", { index: 0 }),
      event("content_block_start", { index: 1, content_block: { type: "redacted_thinking", data: "ZGF0YQ" } }),
      event("content_block_stop", { index: 1 }),
      event("content_block_start", { index: 2, content_block: { type: "text", text: "" } }),
      event("content_block_delta", { index: 2, delta: { type: "text_delta", text: "ok" } }),
      event("content_block_stop", { index: 2 }),
      event("message_delta", { delta: { stop_reason: "end_turn" } }),
      event("message_stop", {}),
    ]);
    expect(deltas).toEqual(["ok"]);
    expect(turn.text).toBe("ok");
    expect(turn.assistantMessage).toEqual({
      role: "assistant",
      content: [
        { type: "thinking", thinking: "plan it", signature: "c2ln" },
        { type: "redacted_thinking", data: "ZGF0YQ" },
        { type: "text", text: "ok" },
      ],
    });
  });

  it("fails when message_stop never comes; a message without content blocks is an empty answer", async () => {
    await expect(
      drain(anthropicStyle, [start, event("content_block_start", { index: 0, content_block: { type: "text", text: "" } })]),
    ).rejects.toBeInstanceOf(LLMStreamError);
    const { turn } = await drain(anthropicStyle, [
      start,
      event("message_delta", { delta: { stop_reason: "end_turn" } }),
      event("message_stop", {}),
    ]);
    expect(turn).toMatchObject({ text: "", toolCalls: [], wantsToolResults: false });
  });
});
