// A runner subject's identity, known here only: which runner, where its implementation comes from
// (the pinned package, another published version, a source build), the name it has in reports and
// baselines, the package and build it stands for before its handshake, and its own baseline file.
// run, smoke, baseline and the bench read a --runner value and name a subject through this module.
import { existsSync } from "node:fs";
import { join } from "node:path";
import { runnersDir } from "../common/paths.ts";
import type { RunnerManifest } from "../../runners/protocol/runner-manifest.types.ts";
import type { PortSourceChoice } from "./port-source.ts";
import { RunnerUnavailableError } from "./runner.ts";
import type { SubjectInfo } from "./subject.ts";

/**
 * Where a runner's implementation comes from: the pinned published package (the default), another
 * published version (`NAME@0.16.0`), or a build of a source checkout (`NAME@source`).
 */
export type RunnerOrigin = { kind: "pinned" } | { kind: "version"; version: string } | { kind: "source"; source: PortSourceChoice };

export const pinned: RunnerOrigin = { kind: "pinned" };

/** An origin as a subject's name says it: NAME@source names no checkout. */
export type OriginName = { kind: RunnerOrigin["kind"]; version?: string };

/** One runner subject the command line asks for: which runner, and where its implementation comes from. */
export interface RunnerPick extends OriginName {
  runner: string;
}

/** The subject name a runner has in reports and baselines: go, go@source, python@0.16.0. */
export function subjectName(runner: string, origin: OriginName): string {
  if (origin.kind === "source") return `${runner}@source`;
  if (origin.kind === "version") return `${runner}@${origin.version}`;
  return runner;
}

/**
 * NAME (the pinned package, or the source build when a checkout is given), NAME@source or
 * NAME@VERSION: the one reading of a --runner value, for run and smoke alike.
 */
export function parseRunnerSpec(spec: string, source: PortSourceChoice | undefined): RunnerPick {
  const [runner, qualifier, ...rest] = spec.split("@");
  if (rest.length || qualifier === "") throw new Error(`--runner ${spec}: expected NAME, NAME@source or NAME@VERSION`);
  if (qualifier === "source" || (qualifier === undefined && source !== undefined)) return { runner, kind: "source" };
  return qualifier === undefined ? { runner, kind: "pinned" } : { runner, kind: "version", version: qualifier };
}

/** Where a picked subject's implementation comes from; a source pick needs the checkout. */
export function originOf(pick: RunnerPick, source: PortSourceChoice | undefined): RunnerOrigin {
  if (pick.kind === "version") return { kind: "version", version: pick.version! };
  if (pick.kind === "pinned") return pinned;
  if (!source) throw new RunnerUnavailableError("no source checkout given: pass --source DIR or set TOOLNEXUS_SOURCE");
  return { kind: "source", source };
}

/** The package as its registry spells it at another version: toolnexus==0.21.0 -> toolnexus==0.16.0. */
export function packageAt(manifest: RunnerManifest, version: string): string {
  const pinnedVersion = manifest.versions?.pinned;
  return pinnedVersion && manifest.package.includes(pinnedVersion)
    ? manifest.package.replace(pinnedVersion, version)
    : `${manifest.package} (version ${version})`;
}

/**
 * A runner's own baseline for one subject identity: expected-failures.yaml (the pinned package),
 * expected-failures.source.yaml (a source build), baselines/VERSION.yaml (another published version;
 * for the pinned version the pinned baseline; else none: no one has measured that version yet, so
 * every divergence shows).
 */
export function baselinePath(runner: string, origin: OriginName = pinned, pinnedVersion?: string): string | undefined {
  const pinnedBaseline = join(runnersDir, runner, "expected-failures.yaml");
  if (origin.kind === "source") return join(runnersDir, runner, "expected-failures.source.yaml");
  if (origin.kind === "version") {
    const own = join(runnersDir, runner, "baselines", `${origin.version}.yaml`);
    if (existsSync(own)) return own;
    // NAME@PINNED is the pinned package under another name: the same measured baseline applies.
    return origin.version === pinnedVersion ? pinnedBaseline : undefined;
  }
  return pinnedBaseline;
}

/** What the manifest says of a picked subject: it stands in until (unless) the runner's handshake reports the real thing. */
export function placeholderInfo(pick: RunnerPick, manifest: RunnerManifest, source: PortSourceChoice | undefined): SubjectInfo {
  const pkg = pick.version ? packageAt(manifest, pick.version) : manifest.package;
  return {
    name: subjectName(pick.runner, pick),
    language: manifest.language,
    package: pkg,
    version: pick.version ?? "(not installed)",
    capabilities: [],
    build: pick.kind === "source" ? { mode: "source", ...(source ? { path: source.dir } : {}) } : { mode: "published", package: pkg },
  };
}
