// A command run to completion, bounded, for every caller (the runner registry's installers, history's
// version listing, flake-check, the bench's children, the MCP conformance suite): in a process group of
// its own, killed whole when the time is up, with the tails of its output kept (an installer can
// print megabytes). It never rejects: a command that could not start says so in `startError`.
import { spawn } from "node:child_process";
import { killProcessGroup, trackProcessGroup } from "./process-group.ts";

export interface BoundedRunOptions {
  cwd: string;
  timeoutMs: number;
  /** Added to this process's environment. */
  env?: Record<string, string>;
  /** Characters kept from the end of stdout, of stderr, and of both interleaved (`output`); default 64 KiB each, Infinity keeps all. */
  tails?: { stdout?: number; stderr?: number; output?: number };
  /** Each chunk of stdout and stderr as it arrives (to echo it, say). */
  onOutput?: (chunk: Buffer) => void;
  /** Kill the group once the command has exited too: whatever it left running dies with it. */
  killGroupAfterExit?: boolean;
}

export interface BoundedRun {
  /** The exit code; null when killed by a signal or never started. */
  code: number | null;
  stdout: string;
  stderr: string;
  output: string;
  timedOut: boolean;
  /** Why the command could not start (spawn's error). */
  startError?: Error;
}

const defaultTail = 64 * 1024;

export function runBounded(command: readonly string[], options: BoundedRunOptions): Promise<BoundedRun> {
  const tail = { stdout: defaultTail, stderr: defaultTail, output: defaultTail, ...options.tails };
  return new Promise((resolve) => {
    const child = spawn(command[0], command.slice(1), {
      cwd: options.cwd,
      env: { ...process.env, ...options.env },
      stdio: ["ignore", "pipe", "pipe"],
      detached: true,
    });
    trackProcessGroup(child);
    let [stdout, stderr, output] = ["", "", ""];
    const keep = (text: string, more: string, limit: number) => (text + more).slice(-limit);
    child.stdout.on("data", (chunk: Buffer) => {
      const text = chunk.toString("utf8");
      [stdout, output] = [keep(stdout, text, tail.stdout), keep(output, text, tail.output)];
      options.onOutput?.(chunk);
    });
    child.stderr.on("data", (chunk: Buffer) => {
      const text = chunk.toString("utf8");
      [stderr, output] = [keep(stderr, text, tail.stderr), keep(output, text, tail.output)];
      options.onOutput?.(chunk);
    });
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      killProcessGroup(child.pid);
    }, options.timeoutMs);
    let settled = false;
    const finish = (code: number | null, startError?: Error) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      if (options.killGroupAfterExit) killProcessGroup(child.pid);
      resolve({ code, stdout, stderr, output, timedOut, ...(startError ? { startError } : {}) });
    };
    child.on("error", (error) => finish(null, error));
    child.on("close", (code) => finish(code));
  });
}
