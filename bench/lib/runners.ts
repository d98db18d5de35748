// Which runners can be measured here: the `ts` runner and every port runner, each either a spec to
// start (installed, handshake checked once) or the reason it is unavailable.
import { existsSync } from "node:fs";
import { join } from "node:path";
import { runnersDir } from "../../conformance/cli/paths.ts";
import { openRunner, readManifest, runnerNames } from "../../conformance/subjects/runner-registry.ts";
import type { RunnerSpec } from "../../conformance/subjects/runner.ts";

/** The ports the compliance matrix has a column for, whether or not their runner exists yet. */
export const knownPorts = ["python", "go", "java", "csharp"] as const;

export type RunnerChoice =
  | { name: string; available: true; spec: RunnerSpec; version: string; package: string }
  | { name: string; available: false; reason: string };

function folderReason(name: string): string | undefined {
  const folder = join(runnersDir, name);
  if (!existsSync(folder)) return `no runners/${name}/ (the ${name} port has no runner yet)`;
  if (!existsSync(join(folder, "runner.json"))) return `runners/${name}/ has no runner.json (runner not finished)`;
  return undefined;
}

/** Install (bounded, by the manifest) and handshake once; the measurements start fresh processes from the spec. */
export async function prepareRunner(name: string, log: (line: string) => void): Promise<RunnerChoice> {
  const missing = folderReason(name);
  if (missing) return { name, available: false, reason: missing };
  try {
    const manifest = await readManifest(name);
    const subject = await openRunner(name, log);
    const { version, package: pkg } = subject.info;
    await subject.close();
    return {
      name,
      available: true,
      version,
      package: pkg,
      spec: { name, command: manifest.start, cwd: join(runnersDir, name), handshakeTimeoutMs: manifest.handshakeTimeoutMs },
    };
  } catch (error) {
    return { name, available: false, reason: error instanceof Error ? error.message : String(error) };
  }
}

/** `ts` first, then the known ports, then any other runner folder. */
export function runnerOrder(): string[] {
  const present = runnerNames();
  const others = present.filter((name) => name !== "ts" && !(knownPorts as readonly string[]).includes(name));
  return ["ts", ...knownPorts, ...others];
}
