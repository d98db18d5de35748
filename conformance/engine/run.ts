// Runs one expanded scenario against one subject: start its fixtures, perform its steps (step.ts;
// which of them run after a failure: step-gate.ts), and always reset the subject and stop the
// fixtures, whatever happened.
import type { FixtureKind } from "../scenario/fixture.ts";
import type { Failure, NotRunStep, Result, Status } from "../schema/report.types.ts";
import type { ExpandedScenario, ExpandedStep } from "../scenario/expand.ts";
import { SubjectBrokenError, type Subject } from "../subjects/subject.ts";
import { fixtureLeftovers, fixtureViolations, ScenarioError, startFixtures, type RunningFixture } from "./fixtures.ts";
import { runStep, subjectGraceMs, type RunContext, type StepResult } from "./step.ts";
import { stepGate } from "./step-gate.ts";
import { makeTempDir, removeTempDir } from "./temp-dirs.ts";
import { withTimeout } from "./time.ts";

export type { StepResult } from "./step.ts";

export const defaultFixtureTimeouts = { startMs: 15_000, stopMs: 10_000 };
export const resetTimeoutMs = 10_000;

export type ScenarioResult = Omit<Result, "expected" | "outcome" | "unlistedChecks" | "staleChecks">;

export interface RunOptions {
  /** The fixture kinds to start fixtures from: the suite's (the CLI passes them), or a test's own. */
  fixtureKinds: ReadonlyMap<string, FixtureKind>;
  /** Bounds on starting and stopping a fixture (defaults 15 s and 10 s). */
  fixtureTimeouts?: { startMs: number; stopMs: number };
  /**
   * Sees each operation step as it completes: the step (with its position in the file), the input
   * after substitution, and the result (to compare two subjects step by step, or to record values).
   */
  onOperation?: (step: ExpandedStep, input: Record<string, unknown>, result: StepResult) => void;
  /**
   * Sees each fixture's last snapshot, taken after the subject's reset, just before the fixture
   * stops (what `record` writes). Only when given is that extra snapshot taken.
   */
  onFinalSnapshot?: (fixture: string, snapshot: unknown) => void;
}

export async function runScenario(scenario: ExpandedScenario, subject: Subject, options: RunOptions): Promise<ScenarioResult> {
  const started = performance.now();
  const base = {
    scenario: scenario.id,
    baseId: scenario.baseId,
    title: scenario.title,
    file: scenario.source.file,
    subject: subject.info.name,
    spec: scenario.spec,
    tags: scenario.tags,
  };
  const notRun: NotRunStep[] = [];
  const finish = (status: Status, message: string, failures: Failure[] = [], stderr?: string): ScenarioResult => {
    // What the runner substituted to drive this release (e.g. an empty toolkit) belongs with the result.
    const notes = status === "skip" ? [] : (subject.drainNotes?.() ?? []);
    return {
      ...base,
      status,
      message,
      durationMs: Math.round(performance.now() - started),
      ...(failures.length ? { failures } : {}),
      ...(notRun.length ? { notRun } : {}),
      ...(stderr ? { stderr } : {}),
      ...(notes.length ? { notes } : {}),
    };
  };

  const missing = scenario.requires.filter((capability) => !subject.info.capabilities.includes(capability));
  if (missing.length) return finish("skip", `${subject.info.name} does not declare ${missing.join(", ")}`);

  const fixtures = new Map<string, RunningFixture>();
  const timeouts = options.fixtureTimeouts ?? defaultFixtureTimeouts;
  const workDir = await makeTempDir("tnc-");
  const failures: Failure[] = [];
  let brokenMessage: string | undefined;
  let stderr: string | undefined;
  let resetDone = false;
  try {
    await startFixtures(scenario, fixtures, workDir, options.fixtureKinds, timeouts.startMs);
    const vars = new Map<string, unknown>(Object.entries(scenario.pathVars));
    for (const { name, instance } of fixtures.values())
      for (const [key, value] of Object.entries(instance.vars)) vars.set(`${name}.${key}`, value);
    const context: RunContext = { scenario, subject, fixtures, vars, onOperation: options.onOperation };
    const gate = stepGate(scenario);
    for (const step of scenario.steps) {
      const skipped = gate.skip(step);
      if (skipped) {
        notRun.push(skipped);
        continue;
      }
      const stepFailures = await runStep(context, step);
      failures.push(...stepFailures);
      gate.record(step, !stepFailures.length);
    }
    const lastStep = scenario.steps.at(-1)?.index ?? 0;
    if (!failures.length) failures.push(...(await fixtureViolations(fixtures, lastStep)));
    // Reset here rather than in `finally`, so that what the reset should have ended can be checked.
    resetDone = true;
    await resetSubject(subject);
    failures.push(...(await fixtureLeftovers(fixtures, lastStep)));
  } catch (error) {
    brokenMessage = errorText(error);
    if (error instanceof SubjectBrokenError) stderr = error.stderr;
  } finally {
    // Reset here only when the run broke before its own reset: that first error is the message, and a
    // failed reset after it adds nothing (the next scenario's reset, or close, meets a subject still broken).
    if (!resetDone) await resetSubject(subject).catch(() => undefined);
    const cleanupProblems = await cleanUp(fixtures, workDir, timeouts.stopMs, options.onFinalSnapshot);
    if (cleanupProblems.length && !brokenMessage) brokenMessage = cleanupProblems.join("; ");
  }
  const drained = subject.drainStderr?.();
  stderr ??= drained || undefined;
  if (brokenMessage) return finish("error", brokenMessage, failures, stderr);
  if (failures.length) return finish("fail", failures[0].message, failures, stderr);
  return finish("pass", "");
}

/**
 * What an error says, never empty: an empty message would read as no error at all, and the scenario
 * would pass (a subject's or fixture's bare `throw new Error()`).
 */
function errorText(error: unknown): string {
  if (error instanceof Error) return error.message || `${error.name} (with no message)`;
  return String(error) || "an error with no message";
}

async function resetSubject(subject: Subject): Promise<void> {
  try {
    await withTimeout(subject.reset({ timeoutMs: resetTimeoutMs }), resetTimeoutMs + subjectGraceMs, `resetting ${subject.info.name}`);
  } catch (error) {
    const message = `reset failed: ${errorText(error)}`;
    throw error instanceof SubjectBrokenError ? new SubjectBrokenError(message, error.stderr) : new ScenarioError(message);
  }
}

/** Stop every fixture and remove the scenario's folder; returns what went wrong stopping them. */
async function cleanUp(
  fixtures: Map<string, RunningFixture>,
  workDir: string,
  stopTimeoutMs: number,
  onFinalSnapshot: RunOptions["onFinalSnapshot"],
): Promise<string[]> {
  const problems: string[] = [];
  await Promise.all(
    [...fixtures.values()].map(async ({ name, instance }) => {
      try {
        if (onFinalSnapshot)
          onFinalSnapshot(name, await withTimeout(instance.snapshot(), 5_000, `snapshot of fixture "${name}"`).catch(() => undefined));
        await withTimeout(instance.stop(), stopTimeoutMs, `stopping fixture "${name}"`);
      } catch (error) {
        problems.push(errorText(error));
      }
    }),
  );
  await removeTempDir(workDir);
  return problems;
}
