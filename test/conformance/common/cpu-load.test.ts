// The busy loops flake-check --load and the bench's steadiness rows run beside a suite: they start,
// they burn CPU, and stop() ends every one of them (twice is harmless).
import { describe, expect, it } from "vitest";
import { startCpuLoad } from "../../../conformance/common/cpu-load.ts";

const alive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

/** Children of this process whose command line is a busy loop. */
async function loops(): Promise<number[]> {
  const { readdirSync, readFileSync } = await import("node:fs");
  return readdirSync("/proc")
    .filter((entry) => /^\d+$/.test(entry))
    .map(Number)
    .filter((pid) => {
      try {
        const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
        const parent = Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1]);
        return parent === process.pid && readFileSync(`/proc/${pid}/cmdline`, "utf8").includes("while :; do :; done");
      } catch {
        return false;
      }
    });
}

describe("cpu load", () => {
  it("starts N busy loops and stop() ends them all", async () => {
    const load = startCpuLoad(3);
    const running = await loops();
    expect(running).toHaveLength(3);
    load.stop();
    load.stop();
    const deadline = Date.now() + 5000;
    while (running.some(alive) && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 50));
    expect(running.filter(alive)).toEqual([]);
  });
});
