// Child processes are started in a process group of their own (`detached: true`), so that ending
// one also ends whatever it started (a runner's stdio MCP servers, an installer's downloads).
import type { ChildProcess } from "node:child_process";

export function killProcessGroup(pid: number | undefined): void {
  if (pid === undefined) return;
  try {
    process.kill(-pid, "SIGKILL");
  } catch {
    // already gone
  }
}

/** Groups started and not yet exited: what an interrupted run must end before it dies (conformance/common/interrupt.ts). */
const liveGroups = new Set<number>();

/** Remember a detached child's group until it exits. */
export function trackProcessGroup(child: ChildProcess): void {
  const pid = child.pid;
  if (pid === undefined) return;
  liveGroups.add(pid);
  child.once("exit", () => liveGroups.delete(pid));
}

/** Kill every tracked group (a runner's or an installer's, with whatever each started). */
export function killLiveProcessGroups(): void {
  for (const pid of liveGroups) killProcessGroup(pid);
  liveGroups.clear();
}

// A child that never started (spawn error) has no pid and will not emit "exit".
const hasExited = (child: ChildProcess) => child.pid === undefined || child.exitCode !== null || child.signalCode !== null;

/**
 * End the child's stdin and give it `graceMs` to exit by itself, then kill its group. Resolves true
 * when it exited by itself.
 */
export async function closeProcessGroup(child: ChildProcess, graceMs: number): Promise<boolean> {
  let exitedByItself = hasExited(child);
  if (!exitedByItself) {
    const exited = new Promise<boolean>((resolve) => child.once("exit", () => resolve(true)));
    child.stdin?.end();
    exitedByItself = await Promise.race([exited, new Promise<boolean>((resolve) => setTimeout(() => resolve(false), graceMs).unref())]);
  }
  killProcessGroup(child.pid);
  return exitedByItself;
}
