// One step of a scenario: substitute its input, perform its operation (or fixture action), capture
// what it names, and check every one of its assertions, so one run shows each difference there.
import type { FixtureInstance } from "../scenario/fixture.ts";
import type { Failure } from "../schema/report.types.ts";
import type { Assertion } from "../schema/scenario.types.ts";
import type { ExpandedScenario, ExpandedStep } from "../scenario/expand.ts";
import { operationValidator } from "../scenario/validate.ts";
import { SubjectBrokenError, type OperationOutcome, type Subject } from "../subjects/subject.ts";
import { evaluate, type AssertionOutcome } from "./assert.ts";
import { resolvePointer } from "../scenario/json-compare.ts";
import { assertionCheck, assertionTargetName, makeFailure, nameStep, stepCheck } from "./failure.ts";
import { ScenarioError, type RunningFixture } from "./fixtures.ts";
import { sleep, TimeoutError, withTimeout } from "./time.ts";
import { substitute } from "./variables.ts";

/** Extra time the engine allows past a step's timeout before it calls the subject hung. */
export const subjectGraceMs = 2_000;

export interface StepResult {
  value?: unknown;
  error?: unknown;
  elapsedMs?: number;
}

/** Snapshots taken the moment an operation settled (step `snapshotOnSettle`), by fixture name. */
type SettledSnapshots = Map<string, unknown>;

/** What every step of one scenario run shares. */
export interface RunContext {
  scenario: ExpandedScenario;
  subject: Subject;
  fixtures: Map<string, RunningFixture>;
  vars: Map<string, unknown>;
  /** Sees each operation step as it completes (RunOptions.onOperation). */
  onOperation?: (step: ExpandedStep, input: Record<string, unknown>, result: StepResult) => void;
}

export async function runStep(context: RunContext, expanded: ExpandedStep): Promise<Failure[]> {
  const { scenario, subject, fixtures, vars, onOperation } = context;
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
      throw new ScenarioError(
        `${where}: fixture "${step.fixture}" action "${step.action}" failed: ${error instanceof Error ? error.message : String(error)}`,
      );
    }
    result = { value: {} };
  } else {
    const observe = (step.snapshotOnSettle ?? []).map((fixtureName) => {
      const running = fixtures.get(fixtureName);
      if (!running) throw new ScenarioError(`${where}: snapshotOnSettle names fixture "${fixtureName}", which is not declared`);
      return [fixtureName, running.instance] as const;
    });
    result = await performOperation(subject, op!, input as Record<string, unknown>, timeoutMs, where, observe, settled);
    onOperation?.(expanded, input as Record<string, unknown>, result);
  }

  const place = (line?: number) => ({ file: scenario.source.file, step: name, ...(line ? { line } : {}) });
  const failures: Failure[] = [];
  for (const [variable, pointer] of Object.entries(("capture" in step && step.capture) || {})) {
    const found = resolvePointer(result, pointer);
    if (found.exists) vars.set(variable, found.value);
    else
      failures.push(
        makeFailure(place(), `${stepCheck(name)} capture ${variable}`, {
          target: "result",
          at: pointer,
          matcher: "capture",
          // A capture of "" (the whole result) always finds it, so the pointer here is never empty.
          text: `: capture "${variable}": nothing at ${pointer}`,
          actual: result,
        }),
      );
  }
  const expectsError = expanded.expect.some(({ assertion }) => !assertion.fixture && !assertion.var && assertion.at.startsWith("/error"));
  if (result.error !== undefined && !expectsError) {
    const error = result.error as { kind?: string; type?: string; message?: string };
    failures.push(
      makeFailure(place(), `${stepCheck(name)} error`, {
        target: "result",
        at: "/error",
        matcher: "no-error",
        text: `: unexpected error (${error.kind}${error.type ? `, ${error.type}` : ""}): ${error.message}`,
        actual: result.error,
      }),
    );
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
  observe: readonly (readonly [string, FixtureInstance])[],
  settled: SettledSnapshots,
): Promise<StepResult> {
  const validate = operationValidator(op);
  if (!validate) throw new ScenarioError(`${where}: unknown operation "${op}"`);
  if (!validate(input)) {
    const problem = validate.errors?.[0];
    throw new ScenarioError(`${where}: input of ${op} is invalid at ${problem?.instancePath || "(top)"}: ${problem?.message}`);
  }
  let outcome: OperationOutcome;
  try {
    outcome = await withTimeout(
      subject.execute(op, input, { timeoutMs }),
      timeoutMs + subjectGraceMs,
      `${where}: ${op} on ${subject.info.name}`,
    );
  } catch (error) {
    if (error instanceof TimeoutError) {
      throw new SubjectBrokenError(
        `${where}: ${op} on ${subject.info.name} did not answer within the step's ${timeoutMs} ms (+${subjectGraceMs} ms grace): the subject hung`,
      );
    }
    throw error;
  }
  // The answer is in: read the observed fixtures now, before anything else the harness does gives a
  // lagging subject time to catch up (all at once, so none waits on another's read). A read that
  // hangs is the fixture's, not the subject's, and its error says so.
  await Promise.all(
    observe.map(async ([name, instance]) =>
      settled.set(name, await withTimeout(settledSnapshot(instance), 5_000, `snapshot of fixture "${name}" on settle`)),
    ),
  );
  return outcome.ok ? { value: outcome.value, elapsedMs: outcome.elapsedMs } : { error: outcome.error, elapsedMs: outcome.elapsedMs };
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
    if (!settled.has(assertion.fixture))
      throw new ScenarioError(
        `assertion with settled: true on fixture "${assertion.fixture}", which the step's snapshotOnSettle does not list`,
      );
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
