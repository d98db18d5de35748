// The reference driver: performs the operations of runners/PROTOCOL.md on the TypeScript reference.
// The in-process subject and the `ts` runner both use it, so they cannot drift apart.
import type { OperationError, OperationOutcome } from "../subject.ts";

/** An operation failed the way the contract allows; carries the protocol error kind. */
export class ContractError extends Error {
  constructor(
    readonly kind: string,
    message: string,
    readonly details?: Record<string, unknown>,
    readonly type?: string,
  ) {
    super(message);
    this.name = "ContractError";
  }
}

/** The operation or option is not implemented by this subject. */
export class UnsupportedError extends Error {}

/** Handles live in a session until `session.reset`; each op family keeps its own map here. */
export interface DriverSession {
  clients: Map<string, unknown>;
  toolkits: Map<string, unknown>;
  /** Cleanups registered by op families, run by session.reset (close toolkits etc.). */
  cleanups: (() => Promise<void>)[];
  /** Set by the reset: an operation still running then (the harness gave up on it) must clean up after itself. */
  closed: boolean;
}

export type OpHandler = (input: Record<string, unknown>, session: DriverSession) => Promise<unknown>;

export function newSession(): DriverSession {
  return { clients: new Map(), toolkits: new Map(), cleanups: [], closed: false };
}

export function requireHandle<T>(map: Map<string, unknown>, name: unknown, what: string): T {
  const entry = map.get(String(name));
  if (entry === undefined) throw new ContractError("other", `no ${what} named "${String(name)}" in this session`);
  return entry as T;
}

export type ErrorClassifier = (error: unknown) => OperationError | undefined;

/** Run one handler, timing it and turning thrown errors into protocol errors. */
export async function perform(
  handler: OpHandler,
  input: Record<string, unknown>,
  session: DriverSession,
  classify: ErrorClassifier,
): Promise<OperationOutcome> {
  const started = performance.now();
  try {
    const value = await handler(input, session);
    return { ok: true, value: value ?? {}, elapsedMs: performance.now() - started };
  } catch (error) {
    if (error instanceof UnsupportedError) throw error;
    const elapsedMs = performance.now() - started;
    if (error instanceof ContractError) {
      return {
        ok: false,
        elapsedMs,
        error: { kind: error.kind, type: error.type ?? error.name, message: error.message, details: error.details },
      };
    }
    const classified = classify(error);
    if (classified) return { ok: false, elapsedMs, error: classified };
    const err = error instanceof Error ? error : new Error(String(error));
    return { ok: false, elapsedMs, error: { kind: "other", type: err.name, message: err.message } };
  }
}
