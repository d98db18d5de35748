// The one bounded command run: the tails it keeps, the group it kills on timeout (a grandchild
// included) and after exit when asked, and a command that cannot start.
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { runBounded } from "../../../conformance/common/run-bounded.ts";

/** Running: a killed process whose new parent has not reaped it yet is a zombie, not alive. */
const alive = (pid: number) => {
  try {
    return !/^\d+ \(.*\) Z/.test(readFileSync(`/proc/${pid}/stat`, "utf8"));
  } catch {
    return false;
  }
};

/** A shell that starts a sleeping grandchild in its group, prints its pid, then does `then`. */
const withGrandchild = (then: string) => ["bash", "-c", `sleep 30 >/dev/null 2>&1 & echo "grandchild $!"; ${then}`];
const grandchildOf = (stdout: string) => Number(/grandchild (\d+)/.exec(stdout)![1]);

describe("common/run-bounded", () => {
  it("keeps the tails of stdout, stderr and both interleaved, and the exit code", async () => {
    const run = await runBounded(["bash", "-c", "printf 0123456789; printf abcdef >&2; exit 3"], {
      cwd: ".",
      timeoutMs: 10_000,
      tails: { stdout: 4, stderr: 3, output: 5 },
    });
    expect(run).toMatchObject({ code: 3, stdout: "6789", stderr: "def", timedOut: false });
    expect(run.output).toHaveLength(5);
    expect(run.startError).toBeUndefined();
  });

  it("kills the whole group when the time is up", async () => {
    const run = await runBounded(withGrandchild("sleep 30"), { cwd: ".", timeoutMs: 500 });
    expect(run.timedOut).toBe(true);
    expect(run.code).toBeNull();
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(alive(grandchildOf(run.stdout))).toBe(false);
  });

  it("kills what the command left running only when asked", async () => {
    const left = await runBounded(withGrandchild("exit 0"), { cwd: ".", timeoutMs: 10_000 });
    const leftPid = grandchildOf(left.stdout);
    try {
      expect(alive(leftPid)).toBe(true);
    } finally {
      process.kill(leftPid, "SIGKILL");
    }
    const killed = await runBounded(withGrandchild("exit 0"), { cwd: ".", timeoutMs: 10_000, killGroupAfterExit: true });
    const killedPid = grandchildOf(killed.stdout);
    await new Promise((resolve) => setTimeout(resolve, 100));
    try {
      expect(alive(killedPid)).toBe(false);
    } finally {
      if (alive(killedPid)) process.kill(killedPid, "SIGKILL");
    }
  });

  it("says why a command could not start, and never rejects", async () => {
    const run = await runBounded(["./no-such-command-here"], { cwd: ".", timeoutMs: 10_000 });
    expect(run.code).toBeNull();
    expect(run.startError?.message).toMatch(/ENOENT/);
  });
});
