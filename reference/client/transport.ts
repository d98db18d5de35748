// One LLM request with retries (SPEC.md client.retry.*, client.faults.http, client.transport.*).
import { excerpt, LLMCancelledError, LLMHttpError, LLMNetworkError } from "./errors.ts";
import type { FetchLike } from "./types.ts";

export const RETRYABLE_STATUSES = new Set([429, 500, 502, 503, 504]);

export interface PostOptions {
  fetch: FetchLike;
  headers: Record<string, string>;
  retries: number;
  retryBaseMs: number;
  /** The configured bound, named in the timeout error. */
  timeoutMs: number;
  /** When the whole call's timeoutMs runs out (epoch ms): every attempt and wait of every turn shares it. */
  deadline: number;
  signal?: AbortSignal;
}

/** A successful answer whose body is still to be read under the same bound. */
export interface Attempt {
  response: Response;
  /** Aborts on the caller's cancel or the call's deadline; the body read is bound by it. */
  signal: AbortSignal;
  /** The error to raise once `signal` has aborted. */
  abortError(): LLMCancelledError;
}

function startAttempt(callerSignal: AbortSignal | undefined, deadline: number, timeoutMs: number) {
  const timeout = AbortSignal.timeout(Math.max(0, deadline - Date.now()));
  const signal = callerSignal ? AbortSignal.any([callerSignal, timeout]) : timeout;
  const abortError = () =>
    callerSignal?.aborted
      ? new LLMCancelledError("aborted", "the call was cancelled")
      : new LLMCancelledError("timeout", `no complete answer within timeoutMs=${timeoutMs}`);
  return { signal, abortError };
}

/** Wait for `ms`, but give up at once when the caller cancels. */
function sleep(ms: number, signal: AbortSignal | undefined): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(new LLMCancelledError("aborted", "the call was cancelled"));
    const onAbort = () => {
      clearTimeout(timer);
      reject(new LLMCancelledError("aborted", "the call was cancelled"));
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener("abort", onAbort);
      resolve();
    }, ms);
    signal?.addEventListener("abort", onAbort, { once: true });
  });
}

/**
 * Retry-After as RFC 9110 delay-seconds: ASCII digits only (SPEC client.retry.after). A fraction, a
 * sign, an HTTP date or garbage falls back to the backoff.
 */
export function retryAfterMs(header: string | null): number | undefined {
  if (header === null) return undefined;
  const value = header.trim();
  return /^[0-9]+$/.test(value) ? Number(value) * 1000 : undefined;
}

export async function postWithRetries(url: string, body: string, options: PostOptions): Promise<Attempt> {
  const attempts = Math.max(0, options.retries) + 1;
  // SPEC.md client.timeout (decision 29): timeoutMs bounds the whole call, so attempts and waits share
  // the call's deadline; a wait that would outlast it is not slept: the call fails at once (decision 9).
  const fitsBudget = (waitMs: number) => Date.now() + waitMs <= options.deadline;
  for (let attempt = 0; ; attempt++) {
    const isLast = attempt === attempts - 1;
    const backoff = options.retryBaseMs * 2 ** attempt;
    const { signal, abortError } = startAttempt(options.signal, options.deadline, options.timeoutMs);
    let response: Response;
    try {
      response = await options.fetch(url, { method: "POST", headers: options.headers, body, signal });
    } catch (error) {
      // An abort (caller or timeout) is final; anything else thrown by fetch is a network error.
      if (signal.aborted) throw abortError();
      const networkError = () => new LLMNetworkError(`request to ${url} failed: ${(error as Error).message}`, { cause: error });
      if (isLast || !fitsBudget(backoff)) throw networkError();
      await sleep(backoff, options.signal);
      continue;
    }
    if (response.ok) return { response, signal, abortError };
    const text = await readTextBounded(response, signal, abortError);
    if (!RETRYABLE_STATUSES.has(response.status) || isLast) throw new LLMHttpError(response.status, excerpt(text));
    const wait = retryAfterMs(response.headers.get("retry-after")) ?? backoff;
    if (!fitsBudget(wait)) throw new LLMHttpError(response.status, excerpt(text));
    await sleep(wait, options.signal);
  }
}

/** Read a whole body; an abort while reading becomes the attempt's cancellation error. */
export async function readTextBounded(response: Response, signal: AbortSignal, abortError: () => Error): Promise<string> {
  try {
    return await response.text();
  } catch (error) {
    if (signal.aborted) throw abortError();
    throw error;
  }
}
