// Start a bench child process (node + tsx), bounded; read its one BENCH-RESULT line.
import { fileURLToPath } from "node:url";
import { besideCpuLoad } from "../../conformance/common/cpu-load.ts";
import { runBounded } from "../../conformance/common/run-bounded.ts";

export const resultMarker = "BENCH-RESULT ";
const repoRoot = fileURLToPath(new URL("../../", import.meta.url));

export interface ChildOutcome<T> {
  result: T;
  /** Wall time of the whole child as the parent saw it (tsx start, lint, suite, exit). */
  processMs: number;
}

/**
 * Run `node --import tsx SCRIPT ARG` in its own process group; kill the group on timeout and after exit.
 * `cpuLoad`: that many busy loops beside it, in its session (conformance/common/cpu-load.ts).
 */
export async function runChild<T>(script: string, arg: unknown, timeoutMs: number, cpuLoad = 0): Promise<ChildOutcome<T>> {
  const started = performance.now();
  const command = besideCpuLoad(cpuLoad, [
    process.execPath,
    "--import",
    "tsx",
    fileURLToPath(new URL(script, new URL("../", import.meta.url))),
    JSON.stringify(arg),
  ]);
  // The whole stdout: the result line may come after anything the child printed.
  const child = await runBounded(command, {
    cwd: repoRoot,
    timeoutMs,
    tails: { stdout: Infinity, stderr: 8_000 },
    killGroupAfterExit: true,
  });
  if (child.startError) throw child.startError;
  const processMs = performance.now() - started;
  const line = child.stdout.split("\n").find((text) => text.startsWith(resultMarker));
  if (child.timedOut) throw new Error(`${script} did not finish within ${timeoutMs} ms: killed\n${child.stderr.trim()}`);
  if (child.code !== 0 || !line)
    throw new Error(`${script} exited with ${child.code}${line ? "" : " without a result"}\n${child.stderr.trim()}`);
  return { result: JSON.parse(line.slice(resultMarker.length)) as T, processMs };
}
