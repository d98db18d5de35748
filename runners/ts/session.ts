// The session of one runner: the handles the operations create (clients, toolkits), what closes them,
// and the signature every operation has. Everything lives until `session.reset`.
import type { OperationInput, OperationName, OperationOutput } from "../protocol/protocol.ts";
import { ContractError } from "./errors.ts";

/** Handles live in a session until `session.reset`; each op family keeps its own map here. */
export interface Session {
  clients: Map<string, unknown>;
  toolkits: Map<string, unknown>;
  /** Cleanups registered by op families, run by session.reset (close toolkits etc.): what each closes, and how. */
  cleanups: { what: string; run: () => Promise<void> }[];
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

/** Each cleanup's bound on session.reset, inside the harness's reset timeout (10 s): PROTOCOL.md, "A bounded close". */
export const cleanupBoundMs = 10_000;

/**
 * Run every cleanup registered so far side by side, each bounded by `boundMs`: a failing one does not
 * stop the others, and one still running at its bound is left running and said on stderr.
 */
export async function runCleanups(session: Session, boundMs = cleanupBoundMs): Promise<void> {
  await Promise.all(
    session.cleanups.splice(0).map(async ({ what, run }) => {
      let timer: NodeJS.Timeout | undefined;
      const late = new Promise<"late">((resolve) => (timer = setTimeout(() => resolve("late"), boundMs)));
      const outcome = await Promise.race([
        Promise.resolve()
          .then(run)
          .catch(() => undefined),
        late,
      ]);
      clearTimeout(timer);
      if (outcome === "late")
        process.stderr.write(`ts runner: session.reset: ${what} did not finish closing within ${boundMs} ms; left closing\n`);
    }),
  );
}
