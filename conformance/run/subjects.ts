// Turns a run's subject choice into subjects: the in-process reference, runners by name (or
// `all`), each from its published package or built from a source checkout, or an ad-hoc runner
// command. Each runner's baseline comes with it: one per subject identity.
import { loadBaseline } from "../report/baseline.ts";
import type { Entry } from "../schema/baseline.types.ts";
import { createReferenceSubject, referenceInfo } from "../subjects/reference/index.ts";
import type { PortSourceChoice } from "../subjects/port-source.ts";
import { baselinePath, originOf, parseRunnerSpec, placeholderInfo, subjectName, type RunnerPick } from "../subjects/runner-identity.ts";
import { openRunner, readManifest, runnerNames } from "../subjects/runner-registry.ts";
import { RunnerUnavailableError, shellCommand, startRunnerSubject, type RunnerSubject } from "../subjects/runner.ts";
import { openLanes, runnerLanes } from "../subjects/pool.ts";
import type { Subject, SubjectInfo } from "../subjects/subject.ts";
import { UsageError } from "../common/usage-error.ts";

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

/** The runner subjects to open: the picks less --skip's, each skip checked against what was picked. */
function skipped(choice: SubjectChoice, picked: RunnerPick[], viaAll: boolean): RunnerPick[] {
  const skip = new Set(choice.skip ?? []);
  if (skip.size && !viaAll) throw new UsageError("--skip leaves subjects out of --runner all; name the subjects to run instead", "run");
  const names = picked.map((pick) => subjectName(pick.runner, pick));
  const unknown = [...skip].filter((name) => name !== "reference" && !names.includes(name));
  if (unknown.length)
    throw new UsageError(`--skip ${unknown.join(", ")}: not a subject of this run (${["reference", ...names].join(", ")})`, "run");
  return picked.filter((pick) => !skip.has(subjectName(pick.runner, pick)));
}

/** The in-process reference, with its lanes. */
async function openReference(jobs: number, log: (line: string) => void): Promise<OpenedSubject> {
  // Each in-process lane has its own handler (and handles); what they share process-wide is what
  // scenarios tagged `exclusive` observe.
  const first = createReferenceSubject();
  return {
    info: referenceInfo("reference"),
    subject: first,
    lanes: await openLanes(first, jobs, async () => createReferenceSubject(), log),
    baseline: new Map(),
    explicitlyRequested: true,
  };
}

/** A runner's first process, installed (or built) and started ahead of its turn, its install lines held until then. */
interface Opening {
  pick: RunnerPick;
  held: { log: (line: string) => void; release: () => void };
  first: Promise<RunnerSubject>;
  /** Its turn came: openPicked owns (and the run closes) what it started. */
  taken: boolean;
}

function startOpening(pick: RunnerPick, source: PortSourceChoice | undefined, log: (line: string) => void): Opening {
  const held = heldLog(log);
  const first = (async () => openRunner(pick.runner, held.log, originOf(pick, source)))();
  first.catch(() => undefined); // its turn says why it failed
  return { pick, held, first, taken: false };
}

/** A runner under runners/ with its lanes and its baseline (--baseline's, its own, or none), or why it is unavailable. */
async function openPicked(opening: Opening, choice: SubjectChoice, viaAll: boolean, log: (line: string) => void): Promise<OpenedSubject> {
  const { pick } = opening;
  const manifest = await readManifest(pick.runner);
  const ownBaseline = choice.noBaseline ? undefined : (choice.baselineFile ?? baselinePath(pick.runner, pick, manifest.versions?.pinned));
  const baseline = ownBaseline ? await loadBaseline(ownBaseline) : new Map<string, Entry>();
  const info = placeholderInfo(pick, manifest, choice.source);
  try {
    opening.taken = true;
    opening.held.release();
    const lanes = await runnerLanes(await opening.first, choice.jobs ?? 1, log);
    return { info, subject: lanes[0], lanes, baseline, explicitlyRequested: !viaAll };
  } catch (error) {
    if (!(error instanceof Error)) throw error;
    const reason = error instanceof RunnerUnavailableError ? error.message : `runner broke at start: ${error.message}`;
    return { info, unavailableReason: reason, lanes: [], baseline, explicitlyRequested: !viaAll };
  }
}

/** `--runner-cmd`: an ad-hoc runner named custom, judged by --baseline's file or none. */
async function openRunnerCommand(command: string, choice: SubjectChoice, log: (line: string) => void): Promise<OpenedSubject> {
  const build = { mode: "command" as const, command };
  const info: SubjectInfo = { name: "custom", language: "(unknown)", package: command, version: "(not started)", capabilities: [], build };
  const baseline = choice.baselineFile ? await loadBaseline(choice.baselineFile) : new Map<string, Entry>();
  try {
    const subject = await startRunnerSubject({
      name: "custom",
      command: shellCommand(command),
      handshakeTimeoutMs: choice.handshakeTimeoutMs,
    });
    subject.info.build = build;
    const lanes = await runnerLanes(subject, choice.jobs ?? 1, log);
    return { info, subject: lanes[0], lanes, baseline, explicitlyRequested: true };
  } catch (error) {
    return {
      info,
      unavailableReason: error instanceof Error ? error.message : String(error),
      lanes: [],
      baseline,
      explicitlyRequested: true,
    };
  }
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

/** Where a subject's lines go, by its place in the order openSubjects yields them (0, 1, ...). */
export type SubjectLog = (index: number) => (line: string) => void;

/**
 * Opens the subjects in the order given. Every runner installs (or builds) and starts its first process
 * at once, up front: installs are mostly network and compiler waits, and each writes only its own
 * folder. A subject's other lanes open only when the run asks for it (the run asks for the
 * next one when one of its `--subjects-at-once` slots is free); its install lines are held until then,
 * and go to `logOf` its index, so the console reads as if they ran one after another.
 */
export async function* openSubjects(choice: SubjectChoice, logOf: SubjectLog = () => console.log): AsyncGenerator<OpenedSubject> {
  if (choice.subject && choice.subject !== "reference")
    throw new Error(`unknown in-process subject "${choice.subject}"; expected: reference`);
  const { picks: picked, viaAll } = await pickRunners(choice);
  const picks = skipped(choice, picked, viaAll);
  if (choice.baselineFile && picks.length + (choice.runnerCommand ? 1 : 0) !== 1)
    throw new Error("--baseline needs exactly one runner subject");
  const wantsReference =
    choice.subject === "reference" || (viaAll && !(choice.skip ?? []).includes("reference")) || (!picked.length && !choice.runnerCommand);
  const offset = wantsReference ? 1 : 0; // the reference comes first
  const openings = picks.map((pick, index) => startOpening(pick, choice.source, logOf(offset + index)));
  // No scenario runs while another runner still builds: a compiler on every core would load the
  // machine under scenarios whose bounds hold only on a machine that is not starved.
  await Promise.allSettled(openings.map(({ first }) => first));
  try {
    if (wantsReference) yield await openReference(choice.jobs ?? 1, logOf(0));
    for (const [index, opening] of openings.entries()) yield await openPicked(opening, choice, viaAll, logOf(offset + index));
  } finally {
    // A run that ends early (an error, a consumer that stops) still closes what was started for it.
    await Promise.all(
      openings
        .filter(({ taken }) => !taken)
        .map(({ first }) =>
          first.then(
            (subject) => subject.close(),
            () => undefined,
          ),
        ),
    );
  }
  if (choice.runnerCommand) yield await openRunnerCommand(choice.runnerCommand, choice, logOf(offset + openings.length));
}
