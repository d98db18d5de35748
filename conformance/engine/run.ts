// Runs one expanded scenario against one subject: start its fixtures, perform its steps, check its
// assertions, and always reset the subject and stop the fixtures, whatever happened.
import type { FixtureInstance, FixtureKind } from "../scenario/fixture.ts";
import type { Failure, Result, Status } from "../schema/report.types.ts";
import type { Assertion } from "../schema/scenario.types.ts";
import type { ExpandedScenario, ExpandedStep } from "../scenario/expand.ts";
import { operationValidator } from "../scenario/validate.ts";
import { SubjectBrokenError, type Subject } from "../subjects/subject.ts";
import { evaluate, resolvePointer, type AssertionOutcome } from "./assert.ts";
import { assertionCheck, assertionTargetName, makeFailure, nameStep, stepCheck } from "./failure.ts";
import { fixtureLeftovers, fixtureViolations, ScenarioError, startFixtures, type RunningFixture } from "./fixtures.ts";
import { makeTempDir, removeTempDir } from "./temp-dirs.ts";
import { sleep, TimeoutError, withTimeout } from "./time.ts";
import { substitute } from "./variables.ts";

const defaultFixtureTimeouts = { startMs: 15_000, stopMs: 10_000 };
export const resetTimeoutMs = 10_000;
/** Extra time the engine allows past a step's timeout before it calls the subject hung. */
const subjectGraceMs = 2_000;

export interface StepResult {
  value?: unknown;
  error?: unknown;
  elapsedMs?: number;
}

/** Snapshots taken the moment an operation settled (step `snapshotOnSettle`), by fixture name. */
type SettledSnapshots = Map<string, unknown>;

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

/** What every step of one scenario run shares. */
interface RunContext {
  scenario: ExpandedScenario;
  subject: Subject;
  fixtures: Map<string, RunningFixture>;
  vars: Map<string, unknown>;
  options: RunOptions;
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
  const finish = (status: Status, message: string, failures: Failure[] = [], stderr?: string): ScenarioResult => {
    // What the runner substituted to drive this release (e.g. an empty toolkit) belongs with the result.
    const notes = status === "skip" ? [] : (subject.drainNotes?.() ?? []);
    return {
      ...base,
      status,
      message,
      durationMs: Math.round(performance.now() - started),
      ...(failures.length ? { failures } : {}),
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
    for (const { name, instance } of fixtures.values()) for (const [key, value] of Object.entries(instance.vars)) vars.set(`${name}.${key}`, value);
    const context: RunContext = { scenario, subject, fixtures, vars, options };
    for (const step of scenario.steps) {
      // Every assertion of the step is evaluated, so one run shows each difference there.
      const stepFailures = await runStep(context, step);
      failures.push(...stepFailures);
      // Later steps build on this one; going on would only add noise.
      if (stepFailures.length) break;
    }
    const lastStep = scenario.steps.at(-1)?.index ?? 0;
    if (!failures.length) failures.push(...(await fixtureViolations(fixtures, lastStep)));
    // Reset here rather than in `finally`, so that what the reset should have ended can be checked.
    resetDone = true;
    await resetSubject(subject);
    failures.push(...(await fixtureLeftovers(fixtures, lastStep)));
  } catch (error) {
    brokenMessage = error instanceof Error ? error.message : String(error);
    if (error instanceof SubjectBrokenError) stderr = error.stderr;
  } finally {
    const cleanupProblems = await cleanUp(resetDone ? undefined : subject, fixtures, workDir, timeouts.stopMs, options.onFinalSnapshot);
    if (cleanupProblems.length && !brokenMessage) brokenMessage = cleanupProblems.join("; ");
  }
  const drained = subject.drainStderr?.();
  stderr ??= drained || undefined;
  if (brokenMessage) return finish("error", brokenMessage, failures, stderr);
  if (failures.length) return finish("fail", failures[0].message, failures, stderr);
  return finish("pass", "");
}

async function runStep(context: RunContext, expanded: ExpandedStep): Promise<Failure[]> {
  const { scenario, subject, fixtures, vars, options } = context;
  const step = expanded.step;
  const timeoutMs = ("timeoutMs" in step && step.timeoutMs) || scenario.timeoutMs;
  let input: unknown;
  let op: string | undefined;
  let substitutionError: unknown;
  try {
    input = substitute(step.with ?? {}, vars);
    if ("op" in step) op = String(substitute(step.op, vars));
  } catch (error) {
    substitutionError = error;
  }
  const name = nameStep(expanded, op);
  const where = `${scenario.source.file}:${name.line}: ${name.label}`;
  if (substitutionError !== undefined) {
    throw new ScenarioError(`${where}: ${substitutionError instanceof Error ? substitutionError.message : String(substitutionError)}`);
  }
  let result: StepResult;
  const settled: SettledSnapshots = new Map();
  if ("fixture" in step) {
    const running = fixtures.get(step.fixture);
    if (!running) throw new ScenarioError(`${where}: fixture "${step.fixture}" is not declared`);
    try {
      await withTimeout(running.instance.act(step.action, input), timeoutMs, `fixture "${step.fixture}" action "${step.action}"`);
    } catch (error) {
      throw new ScenarioError(`${where}: fixture "${step.fixture}" action "${step.action}" failed: ${error instanceof Error ? error.message : String(error)}`);
    }
    result = { value: {} };
  } else {
    const observe = (step.snapshotOnSettle ?? []).map((fixtureName) => {
      const running = fixtures.get(fixtureName);
      if (!running) throw new ScenarioError(`${where}: snapshotOnSettle names fixture "${fixtureName}", which is not declared`);
      return [fixtureName, running.instance] as const;
    });
    result = await performOperation(subject, op!, input as Record<string, unknown>, timeoutMs, where, observe, settled);
    options.onOperation?.(expanded, input as Record<string, unknown>, result);
  }

  const place = (line?: number) => ({ file: scenario.source.file, step: name, ...(line ? { line } : {}) });
  const failures: Failure[] = [];
  for (const [variable, pointer] of Object.entries(("capture" in step && step.capture) || {})) {
    const found = resolvePointer(result, pointer);
    if (found.exists) vars.set(variable, found.value);
    else failures.push(makeFailure(place(), `${stepCheck(name)} capture ${variable}`, { target: "result", at: pointer, matcher: "capture", text: `: capture "${variable}": nothing at ${pointer || "(whole result)"}`, actual: result }));
  }
  const expectsError = expanded.expect.some(({ assertion }) => !assertion.fixture && !assertion.var && assertion.at.startsWith("/error"));
  if (result.error !== undefined && !expectsError) {
    const error = result.error as { kind?: string; type?: string; message?: string };
    failures.push(makeFailure(place(), `${stepCheck(name)} error`, { target: "result", at: "/error", matcher: "no-error", text: `: unexpected error (${error.kind}${error.type ? `, ${error.type}` : ""}): ${error.message}`, actual: result.error }));
    return failures;
  }
  for (const positioned of expanded.expect) {
    const { assertion } = positioned;
    const outcome = await check(assertion, result, fixtures, vars, settled);
    if (outcome.ok) continue;
    const target = assertionTargetName(assertion);
    failures.push(
      makeFailure(place(positioned.line), assertionCheck(name, positioned), {
        target,
        at: assertion.at,
        matcher: outcome.matcher,
        text: `, ${target} ${outcome.message}`,
        ...(assertion.because ? { because: assertion.because } : {}),
        ...("expected" in outcome ? { expected: outcome.expected } : {}),
        ...(outcome.actual !== undefined ? { actual: outcome.actual } : {}),
        ...(outcome.diff ? { diff: outcome.diff } : {}),
      }),
    );
  }
  return failures;
}

async function performOperation(
  subject: Subject,
  op: string,
  input: Record<string, unknown>,
  timeoutMs: number,
  where: string,
  observe: readonly (readonly [string, FixtureInstance])[] = [],
  settled: SettledSnapshots = new Map(),
): Promise<StepResult> {
  const validate = operationValidator(op);
  if (!validate) throw new ScenarioError(`${where}: unknown operation "${op}"`);
  if (!validate(input)) {
    const problem = validate.errors?.[0];
    throw new ScenarioError(`${where}: input of ${op} is invalid at ${problem?.instancePath || "(top)"}: ${problem?.message}`);
  }
  try {
    const outcome = await withTimeout(subject.execute(op, input, { timeoutMs }), timeoutMs + subjectGraceMs, `${where}: ${op} on ${subject.info.name}`);
    // The answer is in: read the observed fixtures now, before anything else the harness does gives a
    // lagging subject time to catch up (all at once, so none waits on another's read).
    await Promise.all(observe.map(async ([name, instance]) => settled.set(name, await withTimeout(settledSnapshot(instance), 5_000, `snapshot of fixture "${name}" on settle`))));
    return outcome.ok ? { value: outcome.value, elapsedMs: outcome.elapsedMs } : { error: outcome.error, elapsedMs: outcome.elapsedMs };
  } catch (error) {
    if (error instanceof TimeoutError) {
      throw new SubjectBrokenError(`${where}: ${op} on ${subject.info.name} did not answer within the step's ${timeoutMs} ms (+${subjectGraceMs} ms grace): the subject hung`);
    }
    throw error;
  }
}

/**
 * A snapshot as of the moment the answer arrived. A fixture learns of a closed socket from I/O events
 * that land a turn or two of the event loop after the peer closed it (measured: two turns for the
 * in-process reference, which answers in this very process), so those turns are let through, and no
 * timer: what a subject closes only after answering is still open here.
 */
const settleTurns = 3;

async function settledSnapshot(instance: FixtureInstance): Promise<unknown> {
  for (let turn = 0; turn < settleTurns; turn++) await new Promise((resolve) => setImmediate(resolve));
  return instance.snapshot();
}

async function check(
  assertion: Assertion,
  result: StepResult,
  fixtures: Map<string, RunningFixture>,
  vars: Map<string, unknown>,
  settled: SettledSnapshots,
): Promise<AssertionOutcome> {
  if (assertion.var !== undefined) return evaluate(assertion, vars.get(assertion.var));
  if (assertion.fixture === undefined) return evaluate(assertion, result);
  if (assertion.settled) {
    if (!settled.has(assertion.fixture)) throw new ScenarioError(`assertion with settled: true on fixture "${assertion.fixture}", which the step's snapshotOnSettle does not list`);
    const outcome = evaluate(assertion, settled.get(assertion.fixture));
    if (!outcome.ok) outcome.message += " (in the snapshot taken when the operation settled)";
    return outcome;
  }
  const instance = fixtures.get(assertion.fixture)?.instance;
  if (!instance) throw new ScenarioError(`assertion on undeclared fixture "${assertion.fixture}"`);
  const read = async () => evaluate(assertion, await withTimeout(instance.snapshot(), 5_000, `snapshot of fixture "${assertion.fixture}"`));
  const deadline = performance.now() + (assertion.eventuallyMs ?? 0);
  let outcome = await read();
  while (!outcome.ok && performance.now() < deadline) {
    await sleep(20);
    outcome = await read();
  }
  if (!outcome.ok) {
    if (assertion.eventuallyMs) outcome.message += ` (still so after ${assertion.eventuallyMs} ms)`;
    return outcome;
  }
  // Held once; a "nothing left" check must go on holding (a late reconnect would break it).
  const heldSince = performance.now();
  while (assertion.holdsForMs && performance.now() - heldSince < assertion.holdsForMs) {
    await sleep(20);
    const later = await read();
    if (!later.ok) {
      later.message += ` (it held, then stopped holding ${Math.round(performance.now() - heldSince)} ms later; it must hold for ${assertion.holdsForMs} ms)`;
      return later;
    }
  }
  return outcome;
}

async function resetSubject(subject: Subject): Promise<void> {
  try {
    await withTimeout(subject.reset({ timeoutMs: resetTimeoutMs }), resetTimeoutMs + subjectGraceMs, `resetting ${subject.info.name}`);
  } catch (error) {
    const message = `reset failed: ${error instanceof Error ? error.message : String(error)}`;
    throw error instanceof SubjectBrokenError ? new SubjectBrokenError(message, error.stderr) : new ScenarioError(message);
  }
}

/** Reset the subject (unless already done) and stop every fixture; returns what went wrong. */
async function cleanUp(
  subject: Subject | undefined,
  fixtures: Map<string, RunningFixture>,
  workDir: string,
  stopTimeoutMs: number,
  onFinalSnapshot: RunOptions["onFinalSnapshot"],
): Promise<string[]> {
  const problems: string[] = [];
  if (subject) await resetSubject(subject).catch((error: Error) => problems.push(error.message));
  await Promise.all(
    [...fixtures.values()].map(async ({ name, instance }) => {
      try {
        if (onFinalSnapshot) onFinalSnapshot(name, await withTimeout(instance.snapshot(), 5_000, `snapshot of fixture "${name}"`).catch(() => undefined));
        await withTimeout(instance.stop(), stopTimeoutMs, `stopping fixture "${name}"`);
      } catch (error) {
        problems.push(error instanceof Error ? error.message : String(error));
      }
    }),
  );
  await removeTempDir(workDir);
  return problems;
}
