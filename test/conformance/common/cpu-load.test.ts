// The busy loops flake-check --load and the bench's steadiness rows run beside a suite: they run in
// the command's session while it runs, they pass its exit status on, and none outlives it.
import { describe, expect, it } from "vitest";
import { besideCpuLoad } from "../../../conformance/common/cpu-load.ts";
import { runBounded } from "../../../conformance/common/run-bounded.ts";
import { repoRoot } from "../../../conformance/common/paths.ts";

const alive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

/**
 * The command beside the loops: prints the pids of its shell's other children (each busy loop is a
 * subshell, with the shell's own command line), and which session each is in beside its own.
 */
const probe = `
const fs = require("node:fs");
const stat = (pid) => { const text = fs.readFileSync("/proc/" + pid + "/stat", "utf8"); return text.slice(text.lastIndexOf(")") + 2).split(" "); };
const shell = process.ppid;
const loops = fs.readdirSync("/proc").filter((entry) => /^\\d+$/.test(entry)).map(Number)
  .filter((pid) => { try { return Number(stat(pid)[1]) === shell && pid !== process.pid; } catch { return false; } });
console.log(JSON.stringify({ loops, sessions: loops.map((pid) => stat(pid)[3]), mine: stat(process.pid)[3] }));
process.exit(3);
`;

describe("besideCpuLoad", () => {
  it("runs N busy loops in the command's session, passes its exit status on, and ends them with it", async () => {
    const run = await runBounded(besideCpuLoad(3, [process.execPath, "-e", probe]), { cwd: repoRoot, timeoutMs: 20_000 });
    expect(run.code, run.output).toBe(3);
    const { loops, sessions, mine } = JSON.parse(run.stdout) as { loops: number[]; sessions: string[]; mine: string };
    expect(loops).toHaveLength(3);
    expect(new Set(sessions)).toEqual(new Set([mine]));
    const deadline = Date.now() + 5000;
    while (loops.some(alive) && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 50));
    expect(loops.filter(alive)).toEqual([]);
  });

  it("with no loops asked for, is the command itself", () => {
    expect(besideCpuLoad(0, ["npx", "tsx"])).toEqual(["npx", "tsx"]);
  });
});
