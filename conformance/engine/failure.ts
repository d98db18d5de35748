// The one way a failure record is made, and its check id: a stable, readable name for what failed
// inside the scenario, which baselines list (`checks:`) as the MCP conformance suite's
// `<scenario>:<check-id>` does. Formed as conformance/README.md#check-ids says:
//   step 3 (client.run) /value/text              an assertion on the step result
//   step 3 (client.run) llm /requests/0/body     an assertion on fixture `llm`'s snapshot
//   step 3 (client.run) var answer /x            an assertion on captured variable `answer`
//   step 4 (client.stream) /value/events (2)     the 2nd assertion of the step on that target and pointer
//   step 2 (toolkit.create) error                an unexpected error
//   step 2 (toolkit.create) capture answer       a capture that found nothing
//   fixture llm contract / fixture srv leftovers a fixture's contract violation / what the subject left running
import type { Failure } from "../schema/report.types.ts";
import type { Assertion } from "../schema/scenario.types.ts";
import type { ExpandedAssertion, ExpandedStep } from "../scenario/expand.ts";

/** A step as checks and messages name it. */
export interface StepName {
  /** 0-based index in the file (reports keep it in `failures[].step`). */
  index: number;
  line: number;
  title?: string;
  /** For check ids: the op a matrix path chose (`client.run`), or `fixture srv poke`. */
  what: string;
  /** For messages: `step 2 (op client.run, "the call")`, the wording reports have always used. */
  label: string;
}

/** Names a step of the file; `op` is its operation after substitution (a fixture step has none). */
export function nameStep(step: ExpandedStep, op: string | undefined): StepName {
  const body = step.step;
  const what = "fixture" in body ? `fixture ${body.fixture} ${body.action}` : (op ?? body.op);
  const doing = "fixture" in body ? `fixture ${body.fixture}, action ${body.action}` : `op ${op ?? body.op}`;
  const label = `step ${step.index + 1} (${doing}${body.title ? `, ${JSON.stringify(body.title)}` : ""})`;
  return { index: step.index, line: step.line, ...(body.title ? { title: body.title } : {}), what, label };
}

/** "step 2 (client.run)": counted from 1, as a person counts the steps of the file. */
export const stepCheck = (step: StepName) => `step ${step.index + 1} (${step.what})`;

const pointerText = (pointer: string) => (pointer === "" ? '""' : pointer);

export function assertionCheck(step: StepName, { assertion, occurrence }: Pick<ExpandedAssertion, "assertion" | "occurrence">): string {
  const target = assertion.fixture !== undefined ? `${assertion.fixture} ` : assertion.var !== undefined ? `var ${assertion.var} ` : "";
  return `${stepCheck(step)} ${target}${pointerText(assertion.at)}${occurrence ? ` (${occurrence})` : ""}`;
}

export const assertionTargetName = (assertion: Assertion) =>
  assertion.fixture !== undefined ? `fixture ${assertion.fixture}` : assertion.var !== undefined ? `var ${assertion.var}` : "result";

/** Where a failure is: a step of the file, or (for what fixtures report after the steps) the scenario's last step. */
export type FailurePlace = { file: string; step: StepName; line?: number } | { afterStep: number };

export type FailureDetails = Omit<Failure, "step" | "stepTitle" | "line" | "check" | "message"> & { text: string };

/**
 * A failure at a step reads "FILE:LINE: step N (...)TEXT", where LINE is the assertion's (or the
 * step's); one after the steps is TEXT alone, counted against the last step as the schema requires.
 */
export function makeFailure(place: FailurePlace, check: string, { text, ...details }: FailureDetails): Failure {
  if ("afterStep" in place) return { step: place.afterStep, check, ...details, message: text };
  const line = place.line ?? place.step.line;
  return {
    step: place.step.index,
    ...(place.step.title ? { stepTitle: place.step.title } : {}),
    line,
    check,
    ...details,
    message: `${place.file}:${line}: ${place.step.label}${text}`,
  };
}
