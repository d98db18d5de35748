// A subject behind a subprocess runner speaking runners/PROTOCOL.md: one long-lived process, one
// request at a time, a timeout per operation. A runner that crashes, hangs or writes garbage is killed;
// the scenario in flight becomes `error`, and the next operation restarts it, within a budget.
import { spawn, type ChildProcessWithoutNullStreams } from "node:child_process";
import { createRequire } from "node:module";
import type { HelloAnswer, ProtocolMessage } from "../../runners/protocol/protocol.types.ts";
import { compileSchema } from "../schema/validator.ts";
import { BoundedLineSplitter } from "./json-lines.ts";
import { closeProcessGroup, killProcessGroup, trackProcessGroup } from "./process-group.ts";
import { SubjectBrokenError, type ExecuteOptions, type OperationOutcome, type Subject, type SubjectInfo } from "./subject.ts";

const require = createRequire(import.meta.url);
const validateMessage = compileSchema<ProtocolMessage>(require("../../runners/protocol/protocol.schema.json"));

export const protocolVersion = 1;
const maxStderrBytes = 64 * 1024;
/** The longest line a runner may write; past it the runner is killed while writing, before the harness holds more. */
const maxLineBytes = 32 * 1024 * 1024;
/** How much of a runner's stderr a start-up failure quotes: the end, where the error usually is. */
const startupStderrTail = { lines: 20, chars: 4_000 };
/** Time a runner gets past an operation's own timeout before it is called hung (less than the engine's grace, so the runner's clearer message wins). */
const answerGraceMs = 1_000;

export interface RunnerSpec {
  /** Name for reports, e.g. "python". */
  name: string;
  /** The command that starts the runner: executable then arguments. */
  command: string[];
  cwd?: string;
  env?: Record<string, string>;
  handshakeTimeoutMs?: number;
  /**
   * How many restarts in a row may break again before any operation succeeds; then every further
   * operation errors. A runner that hangs on one scenario and works on the next never uses it up.
   */
  restartBudget?: number;
}

export class RunnerUnavailableError extends Error {}

interface Pending {
  seq: number;
  resolve: (message: ProtocolMessage) => void;
  reject: (error: Error) => void;
}

/** One process of a runner: spawn, handshake, request/answer, kill. */
class RunnerProcess {
  private readonly child: ChildProcessWithoutNullStreams;
  private pending: Pending | undefined;
  private exited: string | undefined;
  private stderr = "";
  private seq = 0;
  /** Settles once stderr has ended: an exit can be seen before the last of its stderr is read. */
  private readonly stderrEnded: Promise<void>;

  constructor(private readonly spec: RunnerSpec) {
    this.child = spawn(spec.command[0], spec.command.slice(1), {
      cwd: spec.cwd,
      env: { ...process.env, ...spec.env },
      stdio: ["pipe", "pipe", "pipe"],
      // Its own process group, so killing it also kills what it started (stdio MCP servers).
      detached: true,
    });
    trackProcessGroup(this.child);
    this.child.stderr.on("data", (chunk: Buffer) => {
      this.stderr = (this.stderr + chunk.toString("utf8")).slice(-maxStderrBytes);
    });
    this.stderrEnded = new Promise((resolve) => this.child.stderr.once("close", resolve));
    this.child.stdin.on("error", () => undefined); // a dead runner's stdin; reported through exit
    const lines = new BoundedLineSplitter(
      maxLineBytes,
      (line) => this.onLine(line),
      (limit) => {
        this.child.stdout.destroy();
        this.fail(`runner wrote more than ${limit / (1024 * 1024)} MiB to stdout without a newline: killed (a protocol message is one line, at most that long)`);
      },
    );
    this.child.stdout.on("data", (chunk: Buffer) => lines.push(chunk));
    this.child.stdout.on("end", () => lines.end());
    this.child.on("error", (error: NodeJS.ErrnoException) => this.onExit(`could not start ${spec.command.join(" ")}: ${spawnProblem(error)}`));
    this.child.on("exit", (code, signal) => this.onExit(`runner exited (${signal ? `signal ${signal}` : exitCodeMeaning(code)})`));
  }

  get pid(): number | undefined {
    return this.child.pid;
  }

  get alive(): boolean {
    return this.exited === undefined;
  }

  /** What it wrote to stderr and nobody drained yet, left in place. */
  get stderrSoFar(): string {
    return this.stderr;
  }

  drainStderr(): string {
    const text = this.stderr;
    this.stderr = "";
    return text;
  }

  /** Wait (at most `boundMs`) until everything the runner wrote to stderr has been read. */
  async stderrSettled(boundMs = 1_000): Promise<void> {
    await Promise.race([this.stderrEnded, new Promise<void>((resolve) => setTimeout(resolve, boundMs).unref())]);
  }

  private onLine(line: string): void {
    let message: unknown;
    try {
      message = JSON.parse(line);
    } catch {
      return this.fail(`runner wrote a line that is not JSON: ${JSON.stringify(line.slice(0, 200))}`);
    }
    if (!validateMessage(message)) {
      const problem = validateMessage.errors?.[0];
      return this.fail(`runner wrote a message that does not fit the protocol (${problem?.instancePath || "(top)"} ${problem?.message}): ${line.slice(0, 200)}`);
    }
    const pending = this.pending;
    const seq = "seq" in message ? message.seq : 0;
    if (!pending || seq !== pending.seq) {
      return this.fail(`runner answered seq ${seq} while ${pending ? `seq ${pending.seq}` : "nothing"} was asked`);
    }
    this.pending = undefined;
    pending.resolve(message);
  }

  private onExit(reason: string): void {
    if (this.exited) return;
    this.exited = reason;
    this.pending?.reject(new SubjectBrokenError(reason, this.stderr));
    this.pending = undefined;
  }

  /** The runner broke the protocol: kill it and fail what is in flight. */
  private fail(reason: string): void {
    const pending = this.pending;
    this.pending = undefined;
    this.kill();
    pending?.reject(new SubjectBrokenError(reason, this.stderr));
  }

  /** Send one message and wait for the answer with the same seq (0 for the handshake). */
  ask(message: ProtocolMessage, timeoutMs: number, what: string): Promise<ProtocolMessage> {
    if (this.exited) return Promise.reject(new SubjectBrokenError(this.exited, this.stderr));
    const seq = message.type === "request" ? message.seq : 0;
    return new Promise<ProtocolMessage>((resolve, reject) => {
      const timer = setTimeout(() => this.fail(`runner did not answer ${what} within ${timeoutMs} ms: killed`), timeoutMs);
      this.pending = {
        seq,
        resolve: (answer) => {
          clearTimeout(timer);
          resolve(answer);
        },
        reject: (error) => {
          clearTimeout(timer);
          reject(error);
        },
      };
      this.child.stdin.write(`${JSON.stringify(message)}\n`);
    });
  }

  nextSeq(): number {
    return ++this.seq;
  }

  kill(): void {
    killProcessGroup(this.child.pid);
  }

  /**
   * Close stdin and give the runner a moment to exit by itself, then kill its group. Resolves true
   * when it exited on its own (the protocol asks runners to exit when stdin closes).
   */
  close(graceMs = 2_000): Promise<boolean> {
    return closeProcessGroup(this.child, graceMs);
  }
}

/** The shell's and the OS's words for a start that failed for want of the command itself. */
function exitCodeMeaning(code: number | null): string {
  if (code === 127) return "code 127: command not found";
  if (code === 126) return "code 126: found but not executable";
  return `code ${code}`;
}

function spawnProblem(error: NodeJS.ErrnoException): string {
  if (error.code === "ENOENT") return `command not found (${error.message})`;
  if (error.code === "EACCES") return `not executable (${error.message})`;
  return error.message;
}

/**
 * A runner that broke before its handshake was answered (an import error, a missing executable, a
 * crash): the reason says so and ends with the tail of its stderr, often the only real clue, so the
 * console and the report's unavailable reason show it.
 */
async function startupFailure(error: unknown, runner: RunnerProcess): Promise<unknown> {
  if (!(error instanceof SubjectBrokenError)) return error;
  await runner.stderrSettled();
  // Nothing drained it yet (errors carry a copy): this is all of it.
  const stderr = runner.drainStderr();
  const tail = stderr.trimEnd().split("\n").slice(-startupStderrTail.lines).join("\n").slice(-startupStderrTail.chars);
  const when = error.message.startsWith("runner exited") ? " before answering the handshake" : "";
  const quoted = tail.trim() ? `; its stderr ends with:\n${tail.replace(/^/gm, "  ")}` : runner.pid !== undefined ? "; it wrote nothing to stderr" : "";
  const message = `${error.message}${when}${quoted}`;
  return new SubjectBrokenError(message, stderr);
}

async function handshake(runner: RunnerProcess, spec: RunnerSpec): Promise<SubjectInfo> {
  const answer = (await runner.ask({ type: "hello", from: "harness", protocol: protocolVersion }, spec.handshakeTimeoutMs ?? 60_000, "the handshake")) as HelloAnswer;
  if (answer.type !== "hello") throw new SubjectBrokenError(`runner answered the handshake with a "${answer.type}" message`, runner.stderrSoFar);
  if ("unavailable" in answer && answer.unavailable !== undefined) throw new RunnerUnavailableError(answer.unavailable);
  if ("error" in answer && answer.error !== undefined) throw new SubjectBrokenError(`runner refused protocol ${protocolVersion}: ${answer.error}`, runner.stderrSoFar);
  if (answer.protocol !== protocolVersion) throw new SubjectBrokenError(`runner speaks protocol ${answer.protocol}, the harness ${protocolVersion}`);
  const implementation = (answer as { implementation: Omit<SubjectInfo, "name"> & { name: string } }).implementation;
  return { ...implementation, name: spec.name };
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
  let runner = new RunnerProcess(spec);
  let info: SubjectInfo;
  try {
    info = await handshake(runner, spec);
  } catch (error) {
    await runner.close(200);
    throw await startupFailure(error, runner);
  }
  let restarts = 0;
  const notes = new Set<string>();
  /** Restarts since an operation last got an answer: a crash loop, not a hang now and then. */
  let restartsWithoutAnswer = 0;
  const budget = spec.restartBudget ?? 5;
  let carriedStderr = "";
  let exitedOnStdinClose: boolean | undefined;

  const ensureRunning = async (): Promise<RunnerProcess> => {
    if (runner.alive) return runner;
    carriedStderr += runner.drainStderr();
    if (restartsWithoutAnswer >= budget) throw new SubjectBrokenError(`runner broke ${restartsWithoutAnswer + 1} times in a row without answering an operation; restart budget (${budget}) used up`);
    restarts++;
    restartsWithoutAnswer++;
    const fresh = new RunnerProcess(spec);
    try {
      const again = await handshake(fresh, spec);
      if (again.version !== info.version) throw new SubjectBrokenError(`runner came back as version ${again.version}, not ${info.version}`);
    } catch (error) {
      // Never talk to a process whose handshake failed: close it; the next operation tries again (budget permitting).
      await fresh.close(200);
      await fresh.stderrSettled();
      carriedStderr += fresh.drainStderr();
      runner = fresh;
      throw error instanceof SubjectBrokenError ? error : new SubjectBrokenError(`runner restart failed: ${error instanceof Error ? error.message : String(error)}`);
    }
    runner = fresh;
    return runner;
  };

  const execute = async (op: string, input: Record<string, unknown>, options: ExecuteOptions): Promise<OperationOutcome> => {
    const current = await ensureRunning();
    const seq = current.nextSeq();
    const answer = await current.ask({ type: "request", seq, op, input }, options.timeoutMs + answerGraceMs, `${op} (seq ${seq})`);
    if (answer.type !== "crash") restartsWithoutAnswer = 0;
    if ((answer.type === "result" || answer.type === "error") && answer.notes) for (const note of answer.notes) notes.add(note);
    switch (answer.type) {
      case "result":
        return { ok: true, value: answer.value, elapsedMs: answer.elapsedMs };
      case "error":
        return { ok: false, error: answer.error, elapsedMs: answer.elapsedMs };
      case "unsupported":
        return { ok: false, elapsedMs: 0, error: { kind: "unsupported", type: "unsupported", message: `runner says ${op} is unsupported: ${answer.reason}` } };
      case "crash":
        throw new SubjectBrokenError(`runner crashed in ${op}: ${answer.message}`, current.drainStderr());
      default:
        throw new SubjectBrokenError(`runner answered ${op} with a "${answer.type}" message`);
    }
  };

  return {
    info,
    spec,
    get restarts() {
      return restarts;
    },
    get pid() {
      return runner.pid;
    },
    execute,
    async reset(options) {
      // A dead runner holds nothing: it is restarted by the next operation, not here.
      if (!runner.alive) return;
      const outcome = await execute("session.reset", {}, options);
      if (!outcome.ok) throw new SubjectBrokenError(`session.reset failed: ${outcome.error.message}`);
    },
    drainNotes() {
      const drained = [...notes];
      notes.clear();
      return drained;
    },
    drainStderr() {
      const text = carriedStderr + runner.drainStderr();
      carriedStderr = "";
      return text;
    },
    get exitedOnStdinClose() {
      return exitedOnStdinClose;
    },
    async close() {
      exitedOnStdinClose = await runner.close();
    },
  };
}
