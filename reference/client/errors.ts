// Typed errors of the client (SPEC.md client.faults.*); runners map them to protocol error kinds.

/** Base of every error the client raises on purpose. */
export class LLMError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = new.target.name;
  }
}

/** The upstream answered an error status (after retries where the status is retryable). */
export class LLMHttpError extends LLMError {
  constructor(
    readonly status: number,
    readonly bodyExcerpt: string,
  ) {
    super(`HTTP ${status}: ${bodyExcerpt}`);
  }
}

/** A streamed (or JSON) answer was malformed or ended before its terminal event. */
export class LLMStreamError extends LLMError {
  constructor(
    readonly reason: string,
    options?: { cause?: unknown },
  ) {
    super(`stream error: ${reason}`, options);
  }
}

/** Every attempt failed before any HTTP answer (connection refused, reset). */
export class LLMNetworkError extends LLMError {}

/**
 * The call was cancelled: by the caller's signal (`reason: "aborted"`) or because one attempt
 * outlived `timeoutMs` (`reason: "timeout"`, a deadline).
 */
export class LLMCancelledError extends LLMError {
  constructor(
    readonly reason: "aborted" | "timeout",
    message: string,
  ) {
    super(message);
  }
}

/** Cut an upstream body to a size fit for an error message. */
export function excerpt(text: string, max = 500): string {
  return text.length <= max ? text : `${text.slice(0, max)}...`;
}
