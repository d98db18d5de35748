// The session of one runner: the handles the operations create (clients, toolkits), what closes them,
// and the signature every operation has. Everything lives until `session.reset`.
import type { OperationInput, OperationName, OperationOutput } from "../protocol/protocol.ts";
import { ContractError } from "./errors.ts";

/** Handles live in a session until `session.reset`; each op family keeps its own map here. */
export interface Session {
  clients: Map<string, unknown>;
  toolkits: Map<string, unknown>;
  /** Cleanups registered by op families, run by session.reset (close toolkits etc.). */
  cleanups: (() => Promise<void>)[];
  /** Set by the reset: an operation still running then (the harness gave up on it) must clean up after itself. */
  closed: boolean;
}

/** One operation: its input and its value as the protocol schemas define them. */
export type OpHandler<K extends OperationName> = (input: OperationInput<K>, session: Session) => Promise<OperationOutput<K>>;

/** A handler for each of the operations K. */
export type OpHandlers<K extends OperationName> = { [P in K]: OpHandler<P> };

export function newSession(): Session {
  return { clients: new Map(), toolkits: new Map(), cleanups: [], closed: false };
}

export function requireHandle<T>(map: Map<string, unknown>, name: string, what: string): T {
  const entry = map.get(name);
  if (entry === undefined) throw new ContractError("other", `no ${what} named "${name}" in this session`);
  return entry as T;
}

/** Run and forget every cleanup registered so far (a failing one does not stop the others). */
export async function runCleanups(session: Session): Promise<void> {
  await Promise.allSettled(session.cleanups.splice(0).map((cleanup) => cleanup()));
}
