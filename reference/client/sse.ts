// Server-sent events off a fetch body (SPEC.md client.stream.*), parsed with eventsource-parser.
import { createParser, type EventSourceMessage } from "eventsource-parser";
import { LLMStreamError } from "./errors.ts";
import { isRecord } from "./style.ts";
import type { Attempt } from "./transport.ts";

/**
 * Yield each event of the body in order. A connection lost mid-body fails with LLMStreamError; an abort
 * (caller or timeout) fails with the attempt's cancellation. The parser's errors (an unknown field, a
 * `retry` that is not a number) are lines EventSource ignores, and so do we (client.stream.sse-lines):
 * it has no onError here. Whether a data field is JSON is parseEventData's call.
 * Reaching the end of the body is not judged here: whether the terminal event came is the style's call.
 */
export async function* readSseEvents(attempt: Pick<Attempt, "response" | "signal" | "abortError">): AsyncGenerator<EventSourceMessage> {
  const body = attempt.response.body;
  if (!body) throw new LLMStreamError("the response has no body");
  const pending: EventSourceMessage[] = [];
  const parser = createParser({ onEvent: (event) => pending.push(event) });
  const decoder = new TextDecoder();
  const reader = body.getReader();
  try {
    for (;;) {
      let chunk: ReadableStreamReadResult<Uint8Array>;
      try {
        chunk = await reader.read();
      } catch (error) {
        if (attempt.signal.aborted) throw attempt.abortError();
        throw new LLMStreamError(`the connection was lost mid-stream (${(error as Error).message})`, { cause: error });
      }
      // At the end of the body there is nothing to flush: an event without its blank line is not
      // dispatched (WHATWG EventSource discards it too), so a stream cut there lacks its terminal event.
      if (!chunk.done) parser.feed(decoder.decode(chunk.value, { stream: true }));
      while (pending.length > 0) yield pending.shift()!;
      if (chunk.done) return;
    }
  } finally {
    // Stop the download when the consumer leaves early (error, break): nothing keeps reading.
    reader.cancel().catch(() => {});
  }
}

/** The JSON of one SSE data field; anything else is a malformed stream. */
export function parseEventData(event: EventSourceMessage): Record<string, unknown> {
  try {
    const value: unknown = JSON.parse(event.data);
    if (isRecord(value)) return value;
  } catch {
    // fall through
  }
  throw new LLMStreamError(`malformed SSE data: ${JSON.stringify(event.data.slice(0, 200))}`);
}
