// CPU load made on purpose, to measure what a busy machine does to a run (flake-check --load, the
// bench's steadiness rows): N busy loops (`sh -c 'while :; do :; done'`), each in a process group of
// its own and tracked like every other group, so an interrupted caller ends them too.
import { spawn } from "node:child_process";
import { killProcessGroup, trackProcessGroup } from "./process-group.ts";

export interface CpuLoad {
  count: number;
  /** Ends every loop; safe to call twice. */
  stop(): void;
}

export function startCpuLoad(count: number): CpuLoad {
  const loops = Array.from({ length: count }, () => {
    const loop = spawn("sh", ["-c", "while :; do :; done"], { stdio: "ignore", detached: true });
    trackProcessGroup(loop);
    return loop;
  });
  return {
    count,
    stop: () => {
      for (const loop of loops.splice(0)) killProcessGroup(loop.pid);
    },
  };
}
