// Server-sent events off a fetch body (SPEC.md client.stream.*), parsed with eventsource-parser.
import { createParser, type EventSourceMessage, type ParseError } from "eventsource-parser";
import { LLMStreamError } from "./errors.ts";
import { isRecord } from "./style.ts";
import type { Attempt } from "./transport.ts";

/**
 * Yield each event of the body in order. A line the parser rejects fails with LLMStreamError; a
 * connection lost mid-body too; an abort (caller or timeout) fails with the attempt's cancellation.
 * Reaching the end of the body is not judged here: whether the terminal event came is the style's call.
 */
export async function* readSseEvents(attempt: Pick<Attempt, "response" | "signal" | "abortError">): AsyncGenerator<EventSourceMessage> {
  const body = attempt.response.body;
  if (!body) throw new LLMStreamError("the response has no body");
  const pending: EventSourceMessage[] = [];
  let parseError: ParseError | undefined;
  const parser = createParser({
    onEvent: (event) => pending.push(event),
    onError: (error) => {
      parseError ??= error;
    },
  });
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
      if (parseError) throw new LLMStreamError(`malformed SSE line: ${JSON.stringify(parseError.line ?? parseError.message)}`);
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
