// The transport of a runner: a child process speaking JSON lines on stdin/stdout (runners/PROTOCOL.md
// "Transport"). It owns the process: spawn in a group of its own, stderr capture, a bound on line
// length, a timeout per exchange, and killing the whole group when the runner breaks.
import { spawn, type ChildProcessWithoutNullStreams } from "node:child_process";
import { BoundedLineSplitter } from "./json-lines.ts";
import { closeProcessGroup, killProcessGroup, trackProcessGroup } from "../common/process-group.ts";
import type { HarnessMessage } from "../../runners/protocol/protocol.ts";
import { SubjectBrokenError } from "./subject.ts";
import type { Transport } from "./transport.ts";

const maxStderrBytes = 64 * 1024;
/** The longest line a runner may write; past it the runner is killed while writing, before the harness holds more. */
const maxLineBytes = 32 * 1024 * 1024;

export interface ProcessSpec {
  /** The command that starts the runner: executable then arguments. */
  command: string[];
  cwd?: string;
  env?: Record<string, string>;
}

interface Pending {
  resolve: (message: unknown) => void;
  reject: (error: Error) => void;
}

export class ChildProcessTransport implements Transport {
  private readonly child: ChildProcessWithoutNullStreams;
  private pending: Pending | undefined;
  private exited: string | undefined;
  private stderrText = "";
  /** Settles once stderr has ended: an exit can be seen before the last of its stderr is read. */
  private readonly stderrEnded: Promise<void>;

  constructor(spec: ProcessSpec) {
    this.child = spawn(spec.command[0], spec.command.slice(1), {
      cwd: spec.cwd,
      env: { ...process.env, ...spec.env },
      stdio: ["pipe", "pipe", "pipe"],
      // Its own process group, so killing it also kills what it started (stdio MCP servers).
      detached: true,
    });
    trackProcessGroup(this.child);
    this.child.stderr.on("data", (chunk: Buffer) => {
      this.stderrText = (this.stderrText + chunk.toString("utf8")).slice(-maxStderrBytes);
    });
    this.stderrEnded = new Promise((resolve) => this.child.stderr.once("close", resolve));
    this.child.stdin.on("error", () => undefined); // a dead runner's stdin; reported through exit
    const lines = new BoundedLineSplitter(
      maxLineBytes,
      (line) => this.onLine(line),
      (limit) => {
        this.child.stdout.destroy();
        this.breakOff(
          `runner wrote more than ${limit / (1024 * 1024)} MiB to stdout without a newline: killed (a protocol message is one line, at most that long)`,
        );
      },
    );
    this.child.stdout.on("data", (chunk: Buffer) => lines.push(chunk));
    this.child.stdout.on("end", () => lines.end());
    this.child.on("error", (error: NodeJS.ErrnoException) =>
      this.onExit(`could not start ${spec.command.join(" ")}: ${spawnProblem(error)}`),
    );
    this.child.on("exit", (code, signal) => this.onExit(`runner exited (${signal ? `signal ${signal}` : exitCodeMeaning(code)})`));
  }

  get pid(): number | undefined {
    return this.child.pid;
  }

  get alive(): boolean {
    return this.exited === undefined;
  }

  get stderr(): string {
    return this.stderrText;
  }

  drainStderr(): string {
    const text = this.stderrText;
    this.stderrText = "";
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
      return this.breakOff(`runner wrote a line that is not JSON: ${JSON.stringify(line.slice(0, 200))}`);
    }
    const pending = this.pending;
    if (!pending) return this.breakOff(`runner wrote while nothing was asked: ${line.slice(0, 200)}`);
    this.pending = undefined;
    pending.resolve(message);
  }

  private onExit(reason: string): void {
    if (this.exited) return;
    this.exited = reason;
    this.pending?.reject(new SubjectBrokenError(reason, this.stderrText));
    this.pending = undefined;
  }

  /** The runner broke: kill it and fail what is in flight. */
  private breakOff(reason: string): void {
    const pending = this.pending;
    this.pending = undefined;
    this.kill();
    pending?.reject(new SubjectBrokenError(reason, this.stderrText));
  }

  fail(reason: string): SubjectBrokenError {
    this.breakOff(reason);
    return new SubjectBrokenError(reason, this.stderrText);
  }

  exchange(message: HarnessMessage, timeoutMs: number, what: string): Promise<unknown> {
    if (this.exited) return Promise.reject(new SubjectBrokenError(this.exited, this.stderrText));
    return new Promise<unknown>((resolve, reject) => {
      const timer = setTimeout(() => this.breakOff(`runner did not answer ${what} within ${timeoutMs} ms: killed`), timeoutMs);
      this.pending = {
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
