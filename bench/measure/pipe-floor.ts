// The operating system's floor for a JSON-lines round trip: ping-pong of one line with a node child
// that only echoes lines (bench/child/pipe-echo.mjs). A runner's rate divided by this one is what the
// protocol, the schema check and the runner's dispatch cost on top of two pipe wake-ups.
import { spawn } from "node:child_process";
import { closeProcessGroup } from "../../conformance/common/process-group.ts";
import { fileURLToPath } from "node:url";
import { createInterface } from "node:readline";

export interface PipeEcho {
  rate(count: number): Promise<number>;
  close(): Promise<void>;
}

export function startPipeEcho(): PipeEcho {
  const child = spawn(process.execPath, [fileURLToPath(new URL("../child/pipe-echo.mjs", import.meta.url))], {
    stdio: ["pipe", "pipe", "ignore"],
    detached: true,
  });
  const lines = createInterface({ input: child.stdout, crlfDelay: Infinity });
  let waiting: ((line: string) => void) | undefined;
  lines.on("line", (line) => {
    const resolve = waiting;
    waiting = undefined;
    resolve?.(line);
  });
  const roundTrip = (text: string) =>
    new Promise<string>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error("pipe echo did not answer within 5 s")), 5_000);
      waiting = (line) => {
        clearTimeout(timer);
        resolve(line);
      };
      child.stdin.write(`${text}\n`);
    });
  return {
    async rate(count) {
      const started = performance.now();
      for (let index = 0; index < count; index++)
        await roundTrip(`{"type":"request","seq":${index},"op":"runner.echo","input":{"value":{"n":${index},"s":"ping"}}}`);
      return count / ((performance.now() - started) / 1000);
    },
    async close() {
      await closeProcessGroup(child, 2_000);
    },
  };
}
