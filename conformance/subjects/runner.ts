// A subject behind a subprocess runner speaking runners/PROTOCOL.md: one long-lived process, one
// request at a time, a timeout per operation. A runner that crashes, hangs or writes garbage is killed;
// the scenario in flight becomes `error`, and the next operation restarts it, within a budget.
import { ChildProcessTransport, type ProcessSpec } from "./child-process-transport.ts";
import { ProtocolClient, RunnerUnavailableError, type ClientHooks } from "./protocol-client.ts";
import { SubjectBrokenError, type ExecuteOptions, type OperationOutcome, type Subject, type SubjectInfo } from "./subject.ts";

export { RunnerUnavailableError };

/** How much of a runner's stderr a start-up failure quotes: the end, where the error usually is. */
const startupStderrTail = { lines: 20, chars: 4_000 };
/** Time a runner gets past an operation's own timeout before it is called hung (less than the engine's grace, so the runner's clearer message wins). */
const answerGraceMs = 1_000;

export interface RunnerSpec extends ProcessSpec {
  /** Name for reports, e.g. "python". */
  name: string;
  handshakeTimeoutMs?: number;
  /**
   * How many restarts in a row may break again before any operation succeeds; then every further
   * operation errors. A runner that hangs on one scenario and works on the next never uses it up.
   */
  restartBudget?: number;
}

/** One process of a runner and the client speaking to it. */
interface Connection {
  transport: ChildProcessTransport;
  client: ProtocolClient;
}

/**
 * A runner that broke before its handshake was answered (an import error, a missing executable, a
 * crash): the reason says so and ends with the tail of its stderr, often the only real clue, so the
 * console and the report's unavailable reason show it.
 */
async function startupFailure(error: unknown, transport: ChildProcessTransport): Promise<unknown> {
  if (!(error instanceof SubjectBrokenError)) return error;
  await transport.stderrSettled();
  // Nothing drained it yet (errors carry a copy): this is all of it.
  const stderr = transport.drainStderr();
  const tail = stderr.trimEnd().split("\n").slice(-startupStderrTail.lines).join("\n").slice(-startupStderrTail.chars);
  const when = error.message.startsWith("runner exited") ? " before answering the handshake" : "";
  const quoted = tail.trim()
    ? `; its stderr ends with:\n${tail.replace(/^/gm, "  ")}`
    : transport.pid !== undefined
      ? "; it wrote nothing to stderr"
      : "";
  const message = `${error.message}${when}${quoted}`;
  return new SubjectBrokenError(message, stderr);
}

/**
 * The process spec of `--runner-cmd`: the command line run by bash. `--norc` because Node's stdio pipes
 * are sockets, and bash -c with a socket on stdin and no outer shell (SHLVL unset, as under some test
 * runners) takes itself to be run by rshd and sources ~/.bashrc, whose tools (pyenv's rehash lock) can
 * hold the runner up for a minute before it starts.
 */
export function shellCommand(command: string): string[] {
  return ["bash", "--norc", "-c", command];
}

export interface RunnerSubject extends Subject {
  /** How it was started (command, folder, environment): enough to start it again elsewhere, e.g. in a benchmark child. */
  readonly spec: RunnerSpec;
  readonly restarts: number;
  readonly pid: number | undefined;
  /** After close(): whether the runner exited by itself once its stdin closed (else it was killed). */
  readonly exitedOnStdinClose: boolean | undefined;
}

/** Start the runner and complete the handshake; throws RunnerUnavailableError or SubjectBrokenError. */
export async function startRunnerSubject(spec: RunnerSpec): Promise<RunnerSubject> {
  const handshakeTimeoutMs = spec.handshakeTimeoutMs ?? 60_000;
  const budget = spec.restartBudget ?? 5;
  let restarts = 0;
  /** Restarts since an operation last got an answer: a crash loop, not a hang now and then. */
  let restartsWithoutAnswer = 0;
  const notes = new Set<string>();
  let carriedStderr = "";
  let exitedOnStdinClose: boolean | undefined;
  const hooks: ClientHooks = {
    onAnswer(answer) {
      if (answer.type !== "crash") restartsWithoutAnswer = 0;
      if ((answer.type === "result" || answer.type === "error") && answer.notes) for (const note of answer.notes) notes.add(note);
    },
  };
  const open = (): Connection => {
    const transport = new ChildProcessTransport(spec);
    return { transport, client: new ProtocolClient(transport, hooks) };
  };

  let current = open();
  let info: SubjectInfo;
  try {
    info = { ...(await current.client.handshake(handshakeTimeoutMs)), name: spec.name };
  } catch (error) {
    await current.transport.close(200);
    throw await startupFailure(error, current.transport);
  }

  const ensureRunning = async (): Promise<Connection> => {
    if (current.transport.alive) return current;
    carriedStderr += current.transport.drainStderr();
    if (restartsWithoutAnswer >= budget)
      throw new SubjectBrokenError(
        `runner broke ${restartsWithoutAnswer + 1} times in a row without answering an operation; restart budget (${budget}) used up`,
      );
    restarts++;
    restartsWithoutAnswer++;
    const fresh = open();
    current = fresh;
    try {
      const again = await fresh.client.handshake(handshakeTimeoutMs);
      if (again.version !== info.version) throw new SubjectBrokenError(`runner came back as version ${again.version}, not ${info.version}`);
    } catch (error) {
      // Never talk to a process whose handshake failed: close it; the next operation tries again (budget permitting).
      await fresh.transport.close(200);
      await fresh.transport.stderrSettled();
      carriedStderr += fresh.transport.drainStderr();
      throw error instanceof SubjectBrokenError
        ? error
        : new SubjectBrokenError(`runner restart failed: ${error instanceof Error ? error.message : String(error)}`);
    }
    return fresh;
  };

  const execute = async (op: string, input: Record<string, unknown>, options: ExecuteOptions): Promise<OperationOutcome> => {
    const { client } = await ensureRunning();
    return client.request(op, input, options.timeoutMs + answerGraceMs);
  };

  return {
    info,
    spec,
    get restarts() {
      return restarts;
    },
    get pid() {
      return current.transport.pid;
    },
    execute,
    async reset(options) {
      // A dead runner holds nothing: it is restarted by the next operation, not here.
      if (!current.transport.alive) return;
      const outcome = await execute("session.reset", {}, options);
      if (!outcome.ok) throw new SubjectBrokenError(`session.reset failed: ${outcome.error.message}`);
    },
    drainNotes() {
      const drained = [...notes];
      notes.clear();
      return drained;
    },
    drainStderr() {
      const text = carriedStderr + current.transport.drainStderr();
      carriedStderr = "";
      return text;
    },
    get exitedOnStdinClose() {
      return exitedOnStdinClose;
    },
    async close() {
      exitedOnStdinClose = await current.transport.close();
    },
  };
}
