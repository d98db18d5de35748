// `record`: run the reference on scenarios tagged `recorded` and write what it sends as their expected
// values. The marked assertions are the `equals` ones on an llm-mock fixture's `/requests/N/body`
// (or `/raw`) and on `/value/transformInputs/N` of a client.observations step. Each expansion runs
// with those assertions turned into `present: true` (so the run goes on), the values are read from
// the final fixture snapshots and the step results the engine's hooks hand over, and the YAML is rewritten through the yaml
// Document API, so comments and layout elsewhere survive. A review diff by JSON path is printed.
import { readFile, writeFile } from "node:fs/promises";
import { parseDocument } from "yaml";
import { toolnexusSuite } from "../suite/toolnexus.ts";
import type { FixtureKind } from "../scenario/fixture.ts";
import { differences, resolvePointer } from "../scenario/json-compare.ts";
import { runScenario } from "../engine/run.ts";
import { judge } from "../report/baseline.ts";
import { formatResult } from "../report/console.ts";
import type { Difference } from "../schema/report.types.ts";
import type { Assertion } from "../schema/scenario.types.ts";
import { expandScenario, type ExpandedScenario } from "../scenario/expand.ts";
import type { LoadedScenario } from "../scenario/load.ts";
import type { Subject } from "../subjects/subject.ts";
import { compactSmallNodes, RECORDED_TAG } from "./to-scenario.ts";

const WIRE = /^\/requests\/\d+\/(body|raw)(\/.*)?$/;
const TRANSFORM_INPUT = /^\/value\/transformInputs\/\d+(\/.*)?$/;

export interface MarkedAssertion {
  step: number;
  expect: number;
  assertion: Assertion;
}

/** The assertions `record` writes, in a scenario tagged `recorded`. */
export function markedAssertions(scenario: LoadedScenario): MarkedAssertion[] {
  const data = scenario.data;
  if (!(data.tags ?? []).includes(RECORDED_TAG)) return [];
  const fixtures = data.fixtures ?? {};
  const marked: MarkedAssertion[] = [];
  data.steps.forEach((step, stepIndex) => {
    (step.expect ?? []).forEach((assertion, expectIndex) => {
      if (!("equals" in assertion)) return;
      const onWire = assertion.fixture !== undefined && fixtures[assertion.fixture]?.kind === "llm-mock" && WIRE.test(assertion.at);
      const onTransform =
        assertion.fixture === undefined &&
        assertion.var === undefined &&
        "op" in step &&
        step.op === "client.observations" &&
        TRANSFORM_INPUT.test(assertion.at);
      if (onWire || onTransform) marked.push({ step: stepIndex, expect: expectIndex, assertion });
    });
  });
  return marked;
}

export interface RecordedValue {
  marked: MarkedAssertion;
  value: unknown;
  /** The expansions that produced it. */
  from: string[];
}

export interface FileRecording {
  file: string;
  values: RecordedValue[];
  /** Human-readable lines: what changes, by JSON path. */
  review: string[];
  changed: boolean;
}

export class RecordError extends Error {}

const show = (value: unknown) => {
  const text = JSON.stringify(value);
  return text.length > 200 ? `${text.slice(0, 200)}…` : text;
};

/** One change of the review diff: + added, - removed, ~ changed (old -> recorded). */
function reviewLine(difference: Difference): string {
  if (difference.change === "unexpected") return `+ ${difference.path}: ${show(difference.actual)}`;
  if (difference.change === "missing") return `- ${difference.path}: ${show(difference.expected)}`;
  return `~ ${difference.path}: ${show(difference.expected)} -> ${show(difference.actual)}`;
}

const positionKey = (step: number, expect: number) => `${step}/${expect}`;

/** Run one expansion with its marked assertions relaxed; return the value each marked assertion sees. */
async function recordExpansion(
  expanded: ExpandedScenario,
  marked: MarkedAssertion[],
  subject: Subject,
  kinds: ReadonlyMap<string, FixtureKind>,
): Promise<Map<MarkedAssertion, unknown>> {
  const byPosition = new Map(marked.map((entry) => [positionKey(entry.step, entry.expect), entry]));
  const steps = expanded.steps.map((step) => ({
    ...step,
    expect: step.expect.map((positioned) => {
      if (!byPosition.has(positionKey(step.index, positioned.index))) return positioned;
      const { equals: _equals, ...rest } = positioned.assertion;
      return { ...positioned, assertion: { ...rest, present: true as const } };
    }),
  }));

  // The results of operation steps, by step; the final snapshot of each fixture, by name.
  const results = new Map<number, unknown>();
  const snapshots = new Map<string, unknown>();
  const outcome = await runScenario({ ...expanded, steps }, subject, {
    fixtureKinds: kinds,
    onOperation: (step, _input, result) => results.set(step.index, result),
    onFinalSnapshot: (fixture, snapshot) => snapshots.set(fixture, snapshot),
  });
  if (outcome.status !== "pass") {
    throw new RecordError(
      `${expanded.id} does not run cleanly on the reference, nothing recorded:\n${formatResult(judge(outcome, new Map()))}`,
    );
  }
  const values = new Map<MarkedAssertion, unknown>();
  for (const entry of marked) {
    const { assertion } = entry;
    const target = assertion.fixture !== undefined ? snapshots.get(assertion.fixture) : results.get(entry.step);
    const found = resolvePointer(target, assertion.at);
    if (!found.exists) throw new RecordError(`${expanded.id}: nothing at ${assertion.at} to record`);
    values.set(entry, found.value);
  }
  return values;
}

/** Record every scenario of a file; with `write`, rewrite the file when a value changed. */
export async function recordScenario(
  scenario: LoadedScenario,
  subject: Subject,
  options: { write: boolean; fixtureKinds?: ReadonlyMap<string, FixtureKind> },
): Promise<FileRecording> {
  const marked = markedAssertions(scenario);
  if (!marked.length) {
    throw new RecordError(
      `${scenario.file}: nothing to record: tag the scenario "${RECORDED_TAG}" and give it equals: assertions ` +
        `on an llm-mock fixture's /requests/N/body or on client.observations /value/transformInputs/N`,
    );
  }
  const recorded = new Map<MarkedAssertion, RecordedValue>();
  for (const expanded of expandScenario(scenario, toolnexusSuite)) {
    const selected = marked.filter((entry) =>
      expanded.steps.some((step) => step.index === entry.step && step.expect.some((positioned) => positioned.index === entry.expect)),
    );
    if (!selected.length) continue;
    const values = await recordExpansion(expanded, selected, subject, options.fixtureKinds ?? toolnexusSuite.fixtureKinds);
    for (const [entry, value] of values) {
      const previous = recorded.get(entry);
      if (previous && differences(previous.value, value, entry.assertion.at).length) {
        const { line } = scenario.locate(["steps", entry.step, "expect", entry.expect]);
        throw new RecordError(
          `${scenario.file}:${line}: the assertion at ${entry.assertion.at} applies to ${previous.from.join(", ")} and ${expanded.id}, which sent different values; split it with when: {path.id: ...}`,
        );
      }
      if (previous) previous.from.push(expanded.id);
      else recorded.set(entry, { marked: entry, value, from: [expanded.id] });
    }
  }

  const review: string[] = [];
  let changed = false;
  const text = await readFile(scenario.file, "utf8");
  const document = parseDocument(text);
  for (const { marked: entry, value, from } of recorded.values()) {
    const { line } = scenario.locate(["steps", entry.step, "expect", entry.expect]);
    const found = differences(entry.assertion.equals, value, entry.assertion.at);
    const where = `${scenario.file}:${line} ${entry.assertion.fixture ? `fixture ${entry.assertion.fixture}` : "result"} ${entry.assertion.at} (${from.join(", ")})`;
    if (!found.length) {
      review.push(`  unchanged ${where}`);
      continue;
    }
    changed = true;
    review.push(`  changed   ${where}: ${found.length} difference${found.length > 1 ? "s" : ""} (old -> recorded)`);
    for (const difference of found.slice(0, 40)) review.push(`      ${reviewLine(difference)}`);
    if (found.length > 40) review.push(`      … and ${found.length - 40} more`);
    const node = document.createNode(value, { aliasDuplicateObjects: false });
    compactSmallNodes(node);
    document.setIn(["steps", entry.step, "expect", entry.expect, "equals"], node);
  }
  // Only the new values are laid out afresh; comments and layout elsewhere are the document's own.
  if (changed && options.write) await writeFile(scenario.file, document.toString({ lineWidth: 0 }));
  return { file: scenario.file, values: [...recorded.values()], review, changed };
}
