// Which runners can be measured here: the `ts` runner and every port runner, published and built from
// the source checkout, each either a spec to start (installed or built, handshake checked once) or
// the reason it is unavailable. A port this machine cannot obtain (npm test's decision, TNC_OBTAINABLE,
// or one made here) is not installed: its rows say why.
import { existsSync } from "node:fs";
import { join } from "node:path";
import { runnersDir } from "../../conformance/common/paths.ts";
import type { PortSourceChoice } from "../../conformance/subjects/port-source.ts";
import { baselinePath, subjectName, type RunnerOrigin } from "../../conformance/subjects/runner-identity.ts";
import { openRunner, readManifest, runnerNames } from "../../conformance/subjects/runner-registry.ts";
import {
  decideObtainability,
  obtainabilityEnvironmentVariable,
  readObtainability,
  verdictFor,
} from "../../conformance/subjects/obtainability.ts";
import type { Obtainability } from "../../conformance/schema/obtainability.types.ts";
import type { RunnerSpec } from "../../conformance/subjects/runner.ts";
import { UsageError } from "./options.ts";

/** The ports the compliance matrix has a column for, whether or not their runner exists yet. */
export const knownPorts = ["python", "go", "java", "js", "csharp"] as const;

export type RunnerChoice =
  | { name: string; available: true; spec: RunnerSpec; version: string; package: string; baseline: string }
  | { name: string; available: false; reason: string };

function folderReason(name: string): string | undefined {
  const folder = join(runnersDir, name);
  if (!existsSync(folder)) return `no runners/${name}/ (the ${name} port has no runner yet)`;
  if (!existsSync(join(folder, "runner.json"))) return `runners/${name}/ has no runner.json (runner not finished)`;
  return undefined;
}

/** What this machine obtains: the decision npm test made once, or one made now when the bench runs alone. */
export async function obtainability(): Promise<Obtainability> {
  const file = process.env[obtainabilityEnvironmentVariable];
  return file ? readObtainability(file) : decideObtainability();
}

/** Install (bounded, by the manifest) and handshake once; the measurements start fresh processes from the spec. */
export async function prepareRunner(
  runner: string,
  log: (line: string) => void,
  decision: Obtainability,
  source?: PortSourceChoice,
): Promise<RunnerChoice> {
  const origin: RunnerOrigin = source ? { kind: "source", source } : { kind: "pinned" };
  const name = subjectName(runner, origin);
  const missing = folderReason(runner);
  if (missing) return { name, available: false, reason: missing };
  const verdict = verdictFor(decision, name);
  if (verdict.here === "no") return { name, available: false, reason: `not obtainable here: ${verdict.why}` };
  try {
    const subject = await openRunner(runner, log, origin);
    const { version, package: pkg } = subject.info;
    await subject.close();
    return { name, available: true, version, package: pkg, spec: subject.spec, baseline: baselinePath(runner, origin)! };
  } catch (error) {
    return { name, available: false, reason: error instanceof Error ? error.message : String(error) };
  }
}

/**
 * `ts` first, then the known ports, then any other runner folder; each port also from source when a
 * checkout is given and its runner can build one. `only` (bench --runner) narrows it to those names.
 */
export async function runnerOrder(
  source: PortSourceChoice | undefined,
  only: string[] = [],
): Promise<{ runner: string; source?: PortSourceChoice }[]> {
  const present = runnerNames();
  const others = present.filter((name) => name !== "ts" && !(knownPorts as readonly string[]).includes(name));
  const all = ["ts", ...knownPorts, ...others];
  const unknown = only.filter((name) => !all.includes(name));
  if (unknown.length) throw new UsageError(`--runner ${unknown.join(", ")}: no such runner (${all.join(", ")})`);
  const order: { runner: string; source?: PortSourceChoice }[] = [];
  for (const runner of all.filter((name) => !only.length || only.includes(name))) {
    order.push({ runner });
    if (source && present.includes(runner) && (await readManifest(runner)).source) order.push({ runner, source });
  }
  return order;
}
