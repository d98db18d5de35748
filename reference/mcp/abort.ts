// Bounding promises by signals. The SDK's own timeouts cover requests, not transport starts (the SSE
// start waits for an `endpoint` event forever), so every phase is also raced here: whatever the SDK
// does, a phase settles when its signal fires.
import { cancellationError, McpPhaseTimeoutError } from "./errors.ts";

/** Settle with `work`, or reject with `onAbort()` as soon as `signal` aborts (listener removed either way). */
export function raceSignal<T>(work: Promise<T>, signal: AbortSignal, onAbort: () => Error): Promise<T> {
  if (signal.aborted) {
    work.catch(() => undefined); // the loser's rejection is expected; never leave it unhandled
    return Promise.reject(onAbort());
  }
  return new Promise<T>((resolve, reject) => {
    const abort = () => reject(onAbort());
    signal.addEventListener("abort", abort, { once: true });
    work.then(
      (value) => {
        signal.removeEventListener("abort", abort);
        resolve(value);
      },
      (error: unknown) => {
        signal.removeEventListener("abort", abort);
        reject(error);
      },
    );
  });
}

/** A signal for one phase: the caller's signal, or the server's timeout, whichever fires first. */
export function phaseSignal(parent: AbortSignal | undefined, timeoutMs: number): AbortSignal {
  // AbortSignal.timeout takes whole milliseconds only; a fractional server timeout (a positive number,
  // SPEC mcp.connect.isolation) is rounded up, never bounding a phase by less than asked.
  const timeout = AbortSignal.timeout(Math.ceil(timeoutMs));
  return parent ? AbortSignal.any([parent, timeout]) : timeout;
}

/**
 * Run one phase of one server bounded by its timeout and by the caller's signal. The error tells the two
 * apart: a parent abort is the whole load's cancellation, a timeout only fails this server.
 */
export function boundPhase<T>(
  server: string,
  phase: string,
  timeoutMs: number,
  parent: AbortSignal | undefined,
  // Every caller's work is an async function (or hands back a promise it holds), so it never throws.
  work: (signal: AbortSignal) => Promise<T>,
): Promise<T> {
  const signal = phaseSignal(parent, timeoutMs);
  const onAbort = () => (parent?.aborted ? cancellationError(parent) : new McpPhaseTimeoutError(server, phase, timeoutMs));
  return raceSignal(work(signal), signal, onAbort);
}

export const delay = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));
