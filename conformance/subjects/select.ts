// Turns the CLI's subject options into subjects: the in-process reference, runners by name (or
// `all`), each from its published package or built from a source checkout, or an ad-hoc runner
// command. Each runner's baseline comes with it: one per subject identity.
import { join } from "node:path";
import { runnersDir } from "../cli/paths.ts";
import { loadBaseline } from "../report/baseline.ts";
import type { Entry } from "../schema/baseline.types.ts";
import { createReferenceSubject, referenceInfo } from "./reference/index.ts";
import type { PortSourceChoice } from "./port-source.ts";
import { openRunner, readManifest, runnerNames, subjectName } from "./runner-registry.ts";
import { RunnerUnavailableError, startRunnerSubject } from "./runner.ts";
import type { Subject, SubjectInfo } from "./subject.ts";

export interface SubjectChoice {
  subject?: string;
  /** Runner names, `NAME@source`, or `all`. */
  runners: string[];
  runnerCommand?: string;
  /** A source checkout: plain runner names build from it, and `all` adds each runner's source build. */
  source?: PortSourceChoice;
  /** A baseline file to use instead of the runner's own (for a single runner subject). */
  baselineFile?: string;
  /** How long an ad-hoc runner command gets for its handshake. */
  handshakeTimeoutMs?: number;
}

export interface OpenedSubject {
  info: SubjectInfo;
  subject?: Subject;
  unavailableReason?: string;
  baseline: Map<string, Entry>;
  /** Named on the command line (not via `all`): its unavailability fails the run. */
  explicitlyRequested: boolean;
}

/** A runner's own baseline for one identity: expected-failures.yaml (published) or expected-failures.source.yaml. */
export function baselinePath(runner: string, fromSource = false): string {
  return join(runnersDir, runner, fromSource ? "expected-failures.source.yaml" : "expected-failures.yaml");
}

interface RunnerPick {
  runner: string;
  fromSource: boolean;
}

/** Which runner subjects the options ask for, in order. */
export async function pickRunners(choice: SubjectChoice): Promise<{ picks: RunnerPick[]; viaAll: boolean }> {
  if (choice.runners.includes("all")) {
    const picks: RunnerPick[] = [];
    for (const runner of runnerNames()) {
      picks.push({ runner, fromSource: false });
      if (choice.source && (await readManifest(runner)).source) picks.push({ runner, fromSource: true });
    }
    return { picks, viaAll: true };
  }
  const picks = choice.runners.map((spec) => {
    const [runner, mode, ...rest] = spec.split("@");
    if (rest.length || (mode !== undefined && mode !== "source")) throw new Error(`--runner ${spec}: expected NAME or NAME@source`);
    return { runner, fromSource: mode === "source" || choice.source !== undefined };
  });
  return { picks, viaAll: false };
}

/** Opens subjects one at a time, as the run reaches them, so only one runner process lives at once. */
export async function* openSubjects(choice: SubjectChoice, log: (line: string) => void = console.log): AsyncGenerator<OpenedSubject> {
  if (choice.subject && choice.subject !== "reference") throw new Error(`unknown in-process subject "${choice.subject}"; expected: reference`);
  const { picks, viaAll } = await pickRunners(choice);
  if (choice.baselineFile && picks.length + (choice.runnerCommand ? 1 : 0) !== 1) throw new Error("--baseline needs exactly one runner subject");
  const wantsReference = choice.subject === "reference" || viaAll || (!picks.length && !choice.runnerCommand);
  if (wantsReference) yield { info: referenceInfo("reference"), subject: createReferenceSubject(), baseline: new Map(), explicitlyRequested: true };
  for (const { runner, fromSource } of picks) {
    const manifest = await readManifest(runner);
    const name = subjectName(runner, fromSource);
    const baseline = await loadBaseline(choice.baselineFile ?? baselinePath(runner, fromSource));
    // What the manifest says stands in until (unless) the runner's handshake reports the real thing.
    const placeholder: SubjectInfo = {
      name,
      language: manifest.language,
      package: manifest.package,
      version: "(not installed)",
      capabilities: [],
      build: fromSource ? { mode: "source", ...(choice.source ? { path: choice.source.dir } : {}) } : { mode: "published", package: manifest.package },
    };
    try {
      if (fromSource && !choice.source) throw new RunnerUnavailableError("no source checkout given: pass --source DIR or set TOOLNEXUS_SOURCE");
      yield { info: placeholder, subject: await openRunner(runner, log, fromSource ? choice.source : undefined), baseline, explicitlyRequested: !viaAll };
    } catch (error) {
      if (!(error instanceof Error)) throw error;
      const reason = error instanceof RunnerUnavailableError ? error.message : `runner broke at start: ${error.message}`;
      yield { info: placeholder, unavailableReason: reason, baseline, explicitlyRequested: !viaAll };
    }
  }
  if (choice.runnerCommand) {
    const build = { mode: "command" as const, command: choice.runnerCommand };
    const info: SubjectInfo = { name: "custom", language: "(unknown)", package: choice.runnerCommand, version: "(not started)", capabilities: [], build };
    const baseline = choice.baselineFile ? await loadBaseline(choice.baselineFile) : new Map<string, Entry>();
    try {
      const subject = await startRunnerSubject({ name: "custom", command: ["bash", "-c", choice.runnerCommand], handshakeTimeoutMs: choice.handshakeTimeoutMs });
      subject.info.build = build;
      yield { info, subject, baseline, explicitlyRequested: true };
    } catch (error) {
      yield { info, unavailableReason: error instanceof Error ? error.message : String(error), baseline, explicitlyRequested: true };
    }
  }
}
