// The lanes of one subject for `run --jobs N`: N subjects of one identity, each its own runner process
// (or in-process instance), so N scenarios run at once and none sees another's handles. The first lane
// is opened as a single subject always was (install, build, handshake); the others are started from it.
import { availableParallelism } from "node:os";
import { startRunnerSubject, type RunnerSubject } from "./runner.ts";
import type { Subject } from "./subject.ts";

/**
 * Scenarios per subject at once when --jobs is not given: four per core, at least 2, at most 8.
 * A scenario mostly waits (hung servers, phase timeouts, retry backoffs, closes) while the CPU idles;
 * measured on 2 cores (scripts/flake-check.ts, 5 runs at 8), no scenario's bound starved at four per
 * core that did not at one at a time (conformance/README.md#running-scenarios-at-once); beyond 8 a
 * subject's runner processes cost more memory than the waits they overlap are worth.
 */
export function defaultJobs(cores = availableParallelism()): number {
  return Math.min(8, Math.max(2, 4 * cores));
}

/**
 * Adds jobs - 1 lanes to `first`, started side by side by `another`. A lane that fails to start is
 * left out and said (`log`): the results do not depend on how many lanes ran them, only the time does.
 */
export async function openLanes(
  first: Subject,
  jobs: number,
  another: () => Promise<Subject>,
  log: (line: string) => void,
): Promise<Subject[]> {
  const started = await Promise.allSettled(Array.from({ length: Math.max(0, jobs - 1) }, () => another()));
  const lanes = [first];
  for (const outcome of started) {
    if (outcome.status === "fulfilled") lanes.push(outcome.value);
    else
      log(
        `note: ${first.info.name}: a lane of ${jobs} did not start (${outcome.reason instanceof Error ? outcome.reason.message : String(outcome.reason)}); ` +
          `running on ${started.filter((other) => other.status === "fulfilled").length + 1}`,
      );
  }
  return lanes;
}

/** A runner's lanes: `first` and processes started exactly like it (its install or build is done). */
export function runnerLanes(first: RunnerSubject, jobs: number, log: (line: string) => void): Promise<Subject[]> {
  return openLanes(first, jobs, async () => Object.assign(await startRunnerSubject(first.spec), { info: first.info }), log);
}

export async function closeLanes(lanes: readonly Subject[]): Promise<void> {
  await Promise.all(lanes.map((lane) => lane.close()));
}
