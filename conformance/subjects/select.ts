// Turns the CLI's subject options into subjects: the in-process reference, runners by name (or
// `all`), or an ad-hoc runner command. Each runner's baseline comes with it.
import { join } from "node:path";
import { runnersDir } from "../cli/paths.ts";
import { loadBaseline } from "../report/baseline.ts";
import type { Entry } from "../schema/baseline.types.ts";
import { createReferenceSubject, referenceInfo } from "./reference/index.ts";
import { openRunner, readManifest, runnerNames } from "./runner-registry.ts";
import { RunnerUnavailableError, startRunnerSubject } from "./runner.ts";
import type { Subject, SubjectInfo } from "./subject.ts";

export interface SubjectChoice {
  subject?: string;
  runners: string[];
  runnerCommand?: string;
}

export interface OpenedSubject {
  info: SubjectInfo;
  subject?: Subject;
  unavailableReason?: string;
  baseline: Map<string, Entry>;
  /** Named on the command line (not via `all`): its unavailability fails the run. */
  explicitlyRequested: boolean;
}

export function baselinePath(runner: string): string {
  return join(runnersDir, runner, "expected-failures.yaml");
}

/** Opens subjects one at a time, as the run reaches them, so only one runner process lives at once. */
export async function* openSubjects(choice: SubjectChoice, log: (line: string) => void = console.log): AsyncGenerator<OpenedSubject> {
  if (choice.subject && choice.subject !== "reference") throw new Error(`unknown in-process subject "${choice.subject}"; expected: reference`);
  const wantsAllRunners = choice.runners.includes("all");
  const wantsReference = choice.subject === "reference" || wantsAllRunners || (!choice.runners.length && !choice.runnerCommand);
  if (wantsReference) yield { info: referenceInfo("reference"), subject: createReferenceSubject(), baseline: new Map(), explicitlyRequested: true };
  const names = wantsAllRunners ? runnerNames() : choice.runners;
  for (const name of names) {
    const manifest = await readManifest(name);
    const baseline = await loadBaseline(baselinePath(name));
    // What the manifest pins stands in until (unless) the runner's handshake reports the real thing.
    const placeholder: SubjectInfo = { name, language: manifest.language, package: manifest.package, version: "(not installed)", capabilities: [] };
    try {
      yield { info: placeholder, subject: await openRunner(name, log), baseline, explicitlyRequested: !wantsAllRunners };
    } catch (error) {
      if (!(error instanceof Error)) throw error;
      const reason = error instanceof RunnerUnavailableError ? error.message : `runner broke at start: ${error.message}`;
      yield { info: placeholder, unavailableReason: reason, baseline, explicitlyRequested: !wantsAllRunners };
    }
  }
  if (choice.runnerCommand) {
    const info: SubjectInfo = { name: "custom", language: "(unknown)", package: choice.runnerCommand, version: "(not started)", capabilities: [] };
    try {
      yield { info, subject: await startRunnerSubject({ name: "custom", command: ["bash", "-c", choice.runnerCommand] }), baseline: new Map(), explicitlyRequested: true };
    } catch (error) {
      yield { info, unavailableReason: error instanceof Error ? error.message : String(error), baseline: new Map(), explicitlyRequested: true };
    }
  }
}
