// The one place the reference's errors become protocol errors (runners/PROTOCOL.md#error-kinds): the
// runner's own (a contract failure it detects, an operation it does not have), then the typed errors
// of the client and of the MCP source, else kind `other`.
import type { ErrorKind, OperationError } from "../protocol/protocol.types.ts";
import {
  LLMCancelledError,
  LLMHttpError,
  LLMNetworkError,
  LLMStreamError,
  McpCancelledError,
  McpConfigError,
  McpDeadlineError,
} from "../../reference/index.ts";

/** An operation failed the way the contract allows; carries the protocol error kind. */
export class ContractError extends Error {
  constructor(
    readonly kind: ErrorKind,
    message: string,
    readonly details?: Record<string, unknown>,
    readonly type?: string,
  ) {
    super(message);
    this.name = "ContractError";
  }
}

/** The operation or option is not implemented by this subject: answered as error kind `unsupported`. */
export class UnsupportedError extends ContractError {
  constructor(message: string) {
    super("unsupported", message);
    this.name = "UnsupportedError";
  }
}

/** The reference client's typed errors as protocol error kinds. */
function clientError(error: unknown): OperationError | undefined {
  if (error instanceof LLMHttpError) {
    return { kind: "http", type: error.name, message: error.message, details: { status: error.status, bodyExcerpt: error.bodyExcerpt } };
  }
  if (error instanceof LLMStreamError)
    return { kind: "stream", type: error.name, message: error.message, details: { reason: error.reason } };
  if (error instanceof LLMCancelledError) {
    return { kind: error.reason === "timeout" ? "deadline" : "cancelled", type: error.name, message: error.message };
  }
  if (error instanceof LLMNetworkError) return { kind: "other", type: error.name, message: error.message };
  return undefined;
}

/** The MCP source's typed errors as protocol error kinds. */
function mcpError(error: unknown): OperationError | undefined {
  // Deadline first: McpDeadlineError is a McpCancelledError too.
  if (error instanceof McpDeadlineError) return { kind: "deadline", type: error.name, message: error.message };
  if (error instanceof McpCancelledError) return { kind: "cancelled", type: error.name, message: error.message };
  if (error instanceof McpConfigError) return { kind: "config", type: error.name, message: error.message };
  return undefined;
}

/** What an operation threw, as the `error` of the protocol's error answer. */
export function operationError(error: unknown): OperationError {
  // Unsupported is no error of the implementation's: it has no type, as from every runner.
  if (error instanceof UnsupportedError) return { kind: error.kind, message: error.message };
  if (error instanceof ContractError)
    return {
      kind: error.kind,
      type: error.type ?? error.name,
      message: error.message,
      ...(error.details ? { details: error.details } : {}),
    };
  const classified = clientError(error) ?? mcpError(error);
  if (classified) return classified;
  const err = error instanceof Error ? error : new Error(String(error));
  return { kind: "other", type: err.name, message: err.message };
}
