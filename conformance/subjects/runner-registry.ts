// The runners under runners/: read a manifest, install the pinned port package, start the runner.
// A runner that cannot be installed or started here is unavailable, with the installer's own words.
import { spawn } from "node:child_process";
import { existsSync, readdirSync } from "node:fs";
import { readFile } from "node:fs/promises";
import { createRequire } from "node:module";
import { delimiter, join } from "node:path";
import { runnersDir } from "../cli/paths.ts";
import { compileSchema } from "../schema/validator.ts";
import { killProcessGroup } from "./process-group.ts";
import type { RunnerManifest } from "../../runners/protocol/runner-manifest.types.ts";
import { RunnerUnavailableError, startRunnerSubject, type RunnerSubject } from "./runner.ts";

const require = createRequire(import.meta.url);
const validateManifest = compileSchema<RunnerManifest>(require("../../runners/protocol/runner-manifest.schema.json"));

const defaultInstallTimeoutMs = 15 * 60_000;
const installOutputTail = 4_000;

export function runnerNames(): string[] {
  return readdirSync(runnersDir, { withFileTypes: true })
    .filter((entry) => entry.isDirectory() && existsSync(join(runnersDir, entry.name, "runner.json")))
    .map((entry) => entry.name)
    .sort();
}

export async function readManifest(name: string): Promise<RunnerManifest> {
  const path = join(runnersDir, name, "runner.json");
  if (!existsSync(path)) throw new Error(`no runner "${name}": expected ${path}; runners here: ${runnerNames().join(", ")}`);
  const data = JSON.parse(await readFile(path, "utf8"));
  if (!validateManifest(data)) throw new Error(`${path}: ${validateManifest.errors?.map((e) => `${e.instancePath || "(top)"} ${e.message}`).join("; ")}`);
  return data;
}

function onPath(executable: string): boolean {
  return (process.env.PATH ?? "").split(delimiter).some((dir) => dir && existsSync(join(dir, executable)));
}

/** Run a command to completion with a bound; resolves with its exit code and the tail of its output. */
export function runBounded(command: string[], cwd: string, timeoutMs: number): Promise<{ code: number | null; output: string; timedOut: boolean }> {
  return new Promise((resolve) => {
    const child = spawn(command[0], command.slice(1), { cwd, stdio: ["ignore", "pipe", "pipe"], detached: true });
    let output = "";
    const keep = (chunk: Buffer) => {
      output = (output + chunk.toString("utf8")).slice(-64 * 1024);
    };
    child.stdout.on("data", keep);
    child.stderr.on("data", keep);
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      killProcessGroup(child.pid);
    }, timeoutMs);
    child.on("error", (error) => {
      clearTimeout(timer);
      resolve({ code: null, output: error.message, timedOut });
    });
    child.on("close", (code) => {
      clearTimeout(timer);
      resolve({ code, output, timedOut });
    });
  });
}

/** Install (when the manifest says how) and start a runner. Throws RunnerUnavailableError with the reason. */
export async function openRunner(name: string, log: (line: string) => void = () => undefined): Promise<RunnerSubject> {
  const manifest = await readManifest(name);
  const cwd = join(runnersDir, name);
  const missing = (manifest.requires ?? []).filter((executable) => !onPath(executable));
  if (missing.length) throw new RunnerUnavailableError(`${missing.join(", ")} not found on PATH (this runner needs ${missing.join(", ")}; see runners/${name}/README.md)`);
  if (manifest.install) {
    log(`installing ${name}: ${manifest.install.join(" ")}`);
    const installed = await runBounded(manifest.install, cwd, manifest.installTimeoutMs ?? defaultInstallTimeoutMs);
    if (installed.code !== 0) {
      const why = installed.timedOut ? `install did not finish within ${manifest.installTimeoutMs ?? defaultInstallTimeoutMs} ms` : `install exited with ${installed.code}`;
      // The installer's own words, without its terminal colours.
      const output = installed.output.replace(/\x1b\[[0-9;]*[A-Za-z]/g, "").trim();
      throw new RunnerUnavailableError(`${why}:\n${output.slice(-installOutputTail)}`);
    }
  }
  return startRunnerSubject({ name, command: manifest.start, cwd, handshakeTimeoutMs: manifest.handshakeTimeoutMs });
}
