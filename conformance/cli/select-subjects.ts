// Turns the CLI's subject options into subjects: the in-process reference, runners by name (or
// `all`), each from its published package or built from a source checkout, or an ad-hoc runner
// command. Each runner's baseline comes with it: one per subject identity.
import { existsSync } from "node:fs";
import { join } from "node:path";
import { runnersDir } from "../common/paths.ts";
import { loadBaseline } from "../report/baseline.ts";
import type { Entry } from "../schema/baseline.types.ts";
import { createReferenceSubject, referenceInfo } from "../subjects/reference/index.ts";
import type { PortSourceChoice } from "../subjects/port-source.ts";
import { openRunner, packageAt, pinned, readManifest, runnerNames, subjectName, type RunnerOrigin } from "../subjects/runner-registry.ts";
import { RunnerUnavailableError, startRunnerSubject, type RunnerSubject } from "../subjects/runner.ts";
import { openLanes, runnerLanes } from "../subjects/pool.ts";
import type { Subject, SubjectInfo } from "../subjects/subject.ts";
import { UsageError } from "./usage.ts";

export interface SubjectChoice {
  subject?: string;
  /** Runner names, `NAME@source`, `NAME@VERSION`, or `all`. */
  runners: string[];
  runnerCommand?: string;
  /** A source checkout: plain runner names build from it, and `all` adds each runner's source build. */
  source?: PortSourceChoice;
  /** Judge without any baseline (a history run: an old release must not fail on a newer one's baseline). */
  noBaseline?: boolean;
  /** A baseline file to use instead of the runner's own (for a single runner subject). */
  baselineFile?: string;
  /** How long an ad-hoc runner command gets for its handshake. */
  handshakeTimeoutMs?: number;
  /** Subjects `all` leaves out (e.g. reference and ts, which CI's vitest suite already runs on every scenario). */
  skip?: string[];
  /** Lanes per subject (`run --jobs N`): how many of its scenarios run at once; default 1. */
  jobs?: number;
}

export interface OpenedSubject {
  info: SubjectInfo;
  subject?: Subject;
  /** The subject's lanes, `subject` first (choice.jobs of them, fewer if some did not start); close them all. */
  lanes: Subject[];
  unavailableReason?: string;
  baseline: Map<string, Entry>;
  /** Named on the command line (not via `all`): its unavailability fails the run. */
  explicitlyRequested: boolean;
}

/**
 * A runner's own baseline for one subject identity: expected-failures.yaml (the pinned package),
 * expected-failures.source.yaml (a source build), baselines/VERSION.yaml (another published version;
 * for the pinned version the pinned baseline; else none: no one has measured that version yet, so
 * every divergence shows).
 */
export function baselinePath(runner: string, pick: Pick<RunnerPick, "kind" | "version"> = { kind: "pinned" }, pinnedVersion?: string): string | undefined {
  const pinnedBaseline = join(runnersDir, runner, "expected-failures.yaml");
  if (pick.kind === "source") return join(runnersDir, runner, "expected-failures.source.yaml");
  if (pick.kind === "version") {
    const own = join(runnersDir, runner, "baselines", `${pick.version}.yaml`);
    if (existsSync(own)) return own;
    // NAME@PINNED is the pinned package under another name: the same measured baseline applies.
    return pick.version === pinnedVersion ? pinnedBaseline : undefined;
  }
  return pinnedBaseline;
}

/** One runner subject the command line asks for: which runner, and where its implementation comes from. */
export interface RunnerPick {
  runner: string;
  kind: RunnerOrigin["kind"];
  version?: string;
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

/** Which runner subjects the options ask for, in order: NAME, NAME@source, NAME@VERSION, or all. */
export async function pickRunners(choice: SubjectChoice): Promise<{ picks: RunnerPick[]; viaAll: boolean }> {
  if (choice.runners.includes("all")) {
    const picks: RunnerPick[] = [];
    for (const runner of runnerNames()) {
      picks.push({ runner, kind: "pinned" });
      if (choice.source && (await readManifest(runner)).source) picks.push({ runner, kind: "source" });
    }
    return { picks, viaAll: true };
  }
  return { picks: choice.runners.map((spec) => parseRunnerSpec(spec, choice.source)), viaAll: false };
}

/** Where a picked subject's implementation comes from; a source pick needs the checkout. */
export function originOf(pick: RunnerPick, source: PortSourceChoice | undefined): RunnerOrigin {
  if (pick.kind === "version") return { kind: "version", version: pick.version! };
  if (pick.kind === "pinned") return pinned;
  if (!source) throw new RunnerUnavailableError("no source checkout given: pass --source DIR or set TOOLNEXUS_SOURCE");
  return { kind: "source", source };
}

/** A log that holds its lines until `release`, then passes them (and every later one) straight through. */
function heldLog(log: (line: string) => void): { log: (line: string) => void; release: () => void } {
  let held: string[] | undefined = [];
  return {
    log: (line) => (held ? held.push(line) : log(line)),
    release: () => {
      for (const line of held ?? []) log(line);
      held = undefined;
    },
  };
}

/**
 * Opens the subjects in the order given. Every runner installs (or builds) and starts its first process
 * at once, up front: installs are mostly network and compiler waits, and each writes only its own
 * folder. A subject's other lanes open only when the run reaches it, so one subject's lanes live at a
 * time; its install lines are held until then, so the console reads as if they ran one after another.
 */
export async function* openSubjects(choice: SubjectChoice, log: (line: string) => void = console.log): AsyncGenerator<OpenedSubject> {
  if (choice.subject && choice.subject !== "reference") throw new Error(`unknown in-process subject "${choice.subject}"; expected: reference`);
  const { picks: picked, viaAll } = await pickRunners(choice);
  const skip = new Set(choice.skip ?? []);
  if (skip.size && !viaAll) throw new UsageError("--skip leaves subjects out of --runner all; name the subjects to run instead", "run");
  const picks = picked.filter((pick) => !skip.has(subjectName(pick.runner, pick)));
  const unknown = [...skip].filter((name) => name !== "reference" && !picked.some((pick) => subjectName(pick.runner, pick) === name));
  if (unknown.length) throw new UsageError(`--skip ${unknown.join(", ")}: not a subject of this run (${["reference", ...picked.map((pick) => subjectName(pick.runner, pick))].join(", ")})`, "run");
  if (choice.baselineFile && picks.length + (choice.runnerCommand ? 1 : 0) !== 1) throw new Error("--baseline needs exactly one runner subject");
  const wantsReference = choice.subject === "reference" || (viaAll && !skip.has("reference")) || (!picked.length && !choice.runnerCommand);
  const jobs = choice.jobs ?? 1;
  const moreOf = (first: RunnerSubject) => runnerLanes(first, jobs, log);
  const opening = picks.map((pick) => {
    const held = heldLog(log);
    const first = (async () => openRunner(pick.runner, held.log, originOf(pick, choice.source)))();
    first.catch(() => undefined); // its turn says why it failed
    return { held, first, taken: false };
  });
  // No scenario runs while another runner still builds: a compiler on every core would load the
  // machine under scenarios whose bounds hold only on a machine that is not starved.
  await Promise.allSettled(opening.map(({ first }) => first));
  try {
    if (wantsReference) {
      // Each in-process lane has its own handler (and handles); what they share process-wide is what
      // scenarios tagged `exclusive` observe.
      const first = createReferenceSubject();
      yield { info: referenceInfo("reference"), subject: first, lanes: await openLanes(first, jobs, async () => createReferenceSubject(), log), baseline: new Map(), explicitlyRequested: true };
    }
    for (const [index, pick] of picks.entries()) {
      const { runner } = pick;
      const manifest = await readManifest(runner);
      const name = subjectName(runner, pick);
      const pkg = pick.version ? packageAt(manifest, pick.version) : manifest.package;
      const ownBaseline = choice.noBaseline ? undefined : (choice.baselineFile ?? baselinePath(runner, pick, manifest.versions?.pinned));
      const baseline = ownBaseline ? await loadBaseline(ownBaseline) : new Map<string, Entry>();
      // What the manifest says stands in until (unless) the runner's handshake reports the real thing.
      const placeholder: SubjectInfo = {
        name,
        language: manifest.language,
        package: pkg,
        version: pick.version ?? "(not installed)",
        capabilities: [],
        build: pick.kind === "source" ? { mode: "source", ...(choice.source ? { path: choice.source.dir } : {}) } : { mode: "published", package: pkg },
      };
      let lanes: Subject[];
      try {
        opening[index].taken = true;
        opening[index].held.release();
        lanes = await moreOf(await opening[index].first);
      } catch (error) {
        if (!(error instanceof Error)) throw error;
        const reason = error instanceof RunnerUnavailableError ? error.message : `runner broke at start: ${error.message}`;
        yield { info: placeholder, unavailableReason: reason, lanes: [], baseline, explicitlyRequested: !viaAll };
        continue;
      }
      yield { info: placeholder, subject: lanes[0], lanes, baseline, explicitlyRequested: !viaAll };
    }
  } finally {
    // A run that ends early (an error, a consumer that stops) still closes what was started for it.
    await Promise.all(opening.filter(({ taken }) => !taken).map(({ first }) => first.then((subject) => subject.close(), () => undefined)));
  }
  if (choice.runnerCommand) {
    const build = { mode: "command" as const, command: choice.runnerCommand };
    const info: SubjectInfo = { name: "custom", language: "(unknown)", package: choice.runnerCommand, version: "(not started)", capabilities: [], build };
    const baseline = choice.baselineFile ? await loadBaseline(choice.baselineFile) : new Map<string, Entry>();
    let lanes: Subject[];
    try {
      const subject = await startRunnerSubject({ name: "custom", command: ["bash", "-c", choice.runnerCommand], handshakeTimeoutMs: choice.handshakeTimeoutMs });
      subject.info.build = build;
      lanes = await moreOf(subject);
    } catch (error) {
      yield { info, unavailableReason: error instanceof Error ? error.message : String(error), lanes: [], baseline, explicitlyRequested: true };
      return;
    }
    yield { info, subject: lanes[0], lanes, baseline, explicitlyRequested: true };
  }
}
