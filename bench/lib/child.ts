// Start a bench child process (node + tsx), bounded; read its one BENCH-RESULT line.
import { spawn } from "node:child_process";
import { killProcessGroup } from "../../conformance/subjects/process-group.ts";
import { fileURLToPath } from "node:url";

export const resultMarker = "BENCH-RESULT ";
const repoRoot = fileURLToPath(new URL("../../", import.meta.url));

export interface ChildOutcome<T> {
  result: T;
  /** Wall time of the whole child as the parent saw it (tsx start, lint, suite, exit). */
  processMs: number;
}

/** Run `node --import tsx SCRIPT ARG` in its own process group; kill the group on timeout and after exit. */
export function runChild<T>(script: string, arg: unknown, timeoutMs: number): Promise<ChildOutcome<T>> {
  const started = performance.now();
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ["--import", "tsx", fileURLToPath(new URL(script, new URL("../", import.meta.url))), JSON.stringify(arg)], {
      cwd: repoRoot,
      stdio: ["ignore", "pipe", "pipe"],
      detached: true,
    });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (chunk: Buffer) => (stdout += chunk.toString("utf8")));
    child.stderr.on("data", (chunk: Buffer) => (stderr = (stderr + chunk.toString("utf8")).slice(-8_000)));
    const killGroup = () => killProcessGroup(child.pid);
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      killGroup();
    }, timeoutMs);
    child.on("error", (error) => {
      clearTimeout(timer);
      reject(error);
    });
    child.on("close", (code) => {
      clearTimeout(timer);
      killGroup(); // anything the child left in its group (it should have left nothing)
      const processMs = performance.now() - started;
      const line = stdout.split("\n").find((text) => text.startsWith(resultMarker));
      if (timedOut) return reject(new Error(`${script} did not finish within ${timeoutMs} ms: killed\n${stderr.trim()}`));
      if (code !== 0 || !line) return reject(new Error(`${script} exited with ${code}${line ? "" : " without a result"}\n${stderr.trim()}`));
      resolve({ result: JSON.parse(line.slice(resultMarker.length)) as T, processMs });
    });
  });
}
