// What the reference's operation handlers share: their session of handles, their typed signature, and
// the errors they throw to answer as the contract says (handler.ts turns them into protocol answers).
import type { ErrorKind } from "../../../runners/protocol/protocol.types.ts";
import type { OperationInput, OperationName, OperationOutput } from "../../schema/protocol.ts";

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

/** Handles live in a session until `session.reset`; each op family keeps its own map here. */
export interface DriverSession {
  clients: Map<string, unknown>;
  toolkits: Map<string, unknown>;
  /** Cleanups registered by op families, run by session.reset (close toolkits etc.). */
  cleanups: (() => Promise<void>)[];
  /** Set by the reset: an operation still running then (the harness gave up on it) must clean up after itself. */
  closed: boolean;
}

/** One operation on the reference: its input and its value as the protocol schemas define them. */
export type OpHandler<K extends OperationName> = (input: OperationInput<K>, session: DriverSession) => Promise<OperationOutput<K>>;

/** A handler for each of the operations K. */
export type OpHandlers<K extends OperationName> = { [P in K]: OpHandler<P> };

export function newSession(): DriverSession {
  return { clients: new Map(), toolkits: new Map(), cleanups: [], closed: false };
}

export function requireHandle<T>(map: Map<string, unknown>, name: string, what: string): T {
  const entry = map.get(name);
  if (entry === undefined) throw new ContractError("other", `no ${what} named "${name}" in this session`);
  return entry as T;
}
