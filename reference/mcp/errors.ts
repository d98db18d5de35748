// Error classes of the MCP source. The cancellation pair lets hosts (and the conformance driver) tell a
// caller's cancel from a caller's deadline (SPEC.md mcp.cancel.whole-load, mcp.cancel.deadline).

/** The caller's AbortSignal ended the MCP load (or the inventory). */
export class McpCancelledError extends Error {
  constructor(message = "MCP load cancelled by the caller", options?: { cause?: unknown }) {
    super(message, options);
    this.name = "McpCancelledError";
  }
}

/** The caller's deadline (an AbortSignal.timeout, or any signal aborted with a TimeoutError) passed. */
export class McpDeadlineError extends McpCancelledError {
  constructor(message = "MCP load exceeded the caller's deadline", options?: { cause?: unknown }) {
    super(message, options);
    this.name = "McpDeadlineError";
  }
}

/** The MCP config (or a file holding it) is invalid; raised before anything is contacted. */
export class McpConfigError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "McpConfigError";
  }
}

/** One phase of one server ran out of the server's own timeout: that server fails, the load goes on. */
export class McpPhaseTimeoutError extends Error {
  constructor(
    readonly server: string,
    readonly phase: string,
    readonly timeoutMs: number,
  ) {
    super(`MCP server "${server}": ${phase} timed out after ${timeoutMs} ms`);
    this.name = "McpPhaseTimeoutError";
  }
}

/**
 * The error to reject with once the caller's signal has aborted. AbortSignal.timeout() aborts with a
 * DOMException named "TimeoutError"; AbortController.abort() with one named "AbortError" (or the
 * reason the caller gave). Only the former is a deadline.
 */
export function cancellationError(signal: AbortSignal): McpCancelledError {
  const reason: unknown = signal.reason;
  const name = reason instanceof Error || reason instanceof DOMException ? reason.name : undefined;
  return name === "TimeoutError" ? new McpDeadlineError(undefined, { cause: reason }) : new McpCancelledError(undefined, { cause: reason });
}

/** Throw the cancellation error now if the caller's signal has already aborted. */
export function throwIfCancelled(signal: AbortSignal | undefined): void {
  if (signal?.aborted) throw cancellationError(signal);
}
