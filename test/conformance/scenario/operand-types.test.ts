// Lint types what an assertion's `at` points at from declarations (conformance/scenario/operand-types.ts
// for operation values, each fixture kind's snapshotSchema). This keeps those declarations true: it
// runs, against the in-process reference, a scenario per operation and per fixture kind, and checks
// every step value and every snapshot read against what is declared.
import { toolnexusSuite } from "../../../conformance/suite/toolnexus.ts";
import { afterAll, describe, expect, it } from "vitest";
import { defaultScenarioDir } from "../../../conformance/scenario/scenario-id.ts";
import { runScenario } from "../../../conformance/engine/run.ts";
import { lintPaths } from "../../../conformance/scenario/lint.ts";
import { operationValueShapes } from "../../../conformance/scenario/operand-types.ts";
import { operationNames } from "../../../conformance/scenario/validate.ts";
import { compileSchema } from "../../../runners/protocol/json-schema.ts";
import { createReferenceSubject } from "../../../conformance/subjects/reference/index.ts";
import type { FixtureKind } from "../../../conformance/scenario/fixture.ts";
import { fixtureKinds } from "../../../fixtures/registry.ts";

const subject = createReferenceSubject();
afterAll(() => subject.close());

/** Fixture kinds whose every snapshot read is collected, by kind. */
function watchedKinds(snapshots: Map<string, unknown[]>): Map<string, FixtureKind> {
  return new Map(
    [...fixtureKinds].map(([name, kind]) => [
      name,
      {
        ...kind,
        async start(options, context) {
          const instance = await kind.start(options, context);
          const snapshot = async () => {
            const read = await instance.snapshot();
            snapshots.set(name, [...(snapshots.get(name) ?? []), read]);
            return read;
          };
          return { ...instance, snapshot };
        },
      },
    ]),
  );
}

describe("declared operand types", () => {
  it("cover every operation of runners/protocol/operations.schema.json", () => {
    expect(Object.keys(operationValueShapes).sort()).toEqual([...operationNames].sort());
  });

  it("hold for what the reference returns and what the fixtures snapshot", async () => {
    const lint = await lintPaths([defaultScenarioDir], toolnexusSuite);
    const opOf = (scenario: (typeof lint.expanded)[number], step: (typeof lint.expanded)[number]["steps"][number]["step"]) =>
      "op" in step ? (step.op === "${path.op}" ? scenario.pathVars["path.op"] : step.op) : undefined;
    // The first scenario for each operation (where it answers with a value) and each observing fixture kind.
    const chosen = new Set<(typeof lint.expanded)[number]>();
    for (const op of operationNames) {
      const answers = (step: (typeof lint.expanded)[number]["steps"][number]) =>
        !step.expect.some(({ assertion }) => assertion.at.startsWith("/error"));
      const found = lint.expanded.find((scenario) => scenario.steps.some((step) => opOf(scenario, step.step) === op && answers(step)));
      if (found) chosen.add(found);
    }
    for (const kind of fixtureKinds.values()) {
      const found = lint.expanded.find((scenario) =>
        scenario.steps.some((step) =>
          step.expect.some(({ assertion }) => assertion.fixture && scenario.fixtures[assertion.fixture]?.kind === kind.kind),
        ),
      );
      if (found) chosen.add(found);
    }

    const values = new Map<string, unknown[]>();
    const snapshots = new Map<string, unknown[]>();
    const kinds = watchedKinds(snapshots);
    for (const scenario of chosen) {
      await runScenario(scenario, subject, {
        fixtureKinds: kinds,
        onOperation: (step, _input, result) => {
          const op = opOf(scenario, step.step);
          if (op && result.value !== undefined) values.set(op, [...(values.get(op) ?? []), result.value]);
        },
      });
    }
    const echoed = await subject.execute("runner.echo", { value: [1] }, { timeoutMs: 1000 });
    if (echoed.ok) values.set("runner.echo", [echoed.value]);

    const problems: string[] = [];
    for (const [op, seen] of values) {
      const validate = compileSchema(operationValueShapes[op]);
      for (const value of seen)
        if (!validate(value)) problems.push(`${op}: at ${validate.errors?.[0].instancePath} ${validate.errors?.[0].message}`);
    }
    for (const [kind, seen] of snapshots) {
      const validate = compileSchema(fixtureKinds.get(kind)!.snapshotSchema!);
      for (const snapshot of seen)
        if (!validate(snapshot)) problems.push(`${kind} snapshot: at ${validate.errors?.[0].instancePath} ${validate.errors?.[0].message}`);
    }
    expect([...new Set(problems)]).toEqual([]);
    // session.reset is the harness's own call between scenarios; no scenario reads its value.
    expect(operationNames.filter((op) => !values.has(op))).toEqual(["session.reset"]);
    const observing = [...fixtureKinds.values()].filter((kind) => kind.observes !== false).map((kind) => kind.kind);
    expect([...snapshots.keys()].sort()).toEqual(observing.sort());
  }, 120_000);
});
