// One step, driven directly (runStep) or through runScenario with fakes: which timeout the subject is
// given, the records a failing step makes (every field a report and a baseline read), and the errors a
// scenario the engine cannot run gets, each naming the file, line and step.
import { describe, expect, it, vi } from "vitest";
import { runScenario } from "../../../conformance/engine/run.ts";
import { runStep, type RunContext } from "../../../conformance/engine/step.ts";
import type { FixtureInstance, FixtureKind } from "../../../conformance/scenario/fixture.ts";
import { toolnexusSuite } from "../../../conformance/suite/toolnexus.ts";
import type { OperationOutcome, Subject } from "../../../conformance/subjects/subject.ts";
import { expandYaml, fakeSubject, ok } from "../helpers.ts";

const suiteFixtures = { fixtureKinds: toolnexusSuite.fixtureKinds };
const header = "id: t.step\ntitle: t\nspec: [core.tool-result]\n";

/** A fixture instance whose snapshot is `state` as it is when read; its act and snapshot may be replaced. */
function liveInstance(state: Record<string, unknown> = { open: 0 }, overrides: Partial<FixtureInstance> = {}): FixtureInstance {
  return { vars: {}, act: async () => undefined, snapshot: async () => ({ ...state }), stop: async () => undefined, ...overrides };
}

/** The context runStep gets inside runScenario, for a scenario written inline and the fixtures given. */
function contextFor(yaml: string, subject: Subject, fixtures: Record<string, FixtureInstance> = {}): RunContext {
  return {
    scenario: expandYaml(yaml)[0],
    subject,
    fixtures: new Map(Object.entries(fixtures).map(([name, instance]) => [name, { name, kind: "live", instance }])),
    vars: new Map(),
  };
}

/** runStep's first step of the scenario, rejected: the error's message. */
async function stepError(context: RunContext): Promise<string> {
  const error = await runStep(context, context.scenario.steps[0]).then(
    () => new Error("the step did not throw"),
    (thrown: Error) => thrown,
  );
  return error.message;
}

/** A fixture kind "live" starting the instance given. */
const kindsOf = (instance: FixtureInstance) => {
  const kind: FixtureKind = {
    kind: "live",
    actions: ["poke"],
    varKeys: [],
    optionsSchema: { type: "object" },
    start: async () => instance,
  };
  return { fixtureKinds: new Map([[kind.kind, kind]]) };
};

describe("a step's timeout", () => {
  it("the subject is given the step's timeoutMs, else the scenario's", async () => {
    const given: unknown[] = [];
    const subject = fakeSubject(() => ok({ value: 1 }));
    subject.execute = async (_op, _input, options) => {
      given.push(options);
      return ok({ value: 1 });
    };
    const yaml = `${header}timeoutMs: 700\nsteps:\n  - op: runner.echo\n    timeoutMs: 30\n    with: {value: 1}\n  - op: runner.echo\n    with: {value: 2}\n`;
    expect((await runScenario(expandYaml(yaml)[0], subject, suiteFixtures)).status).toBe("pass");
    expect(given).toEqual([{ timeoutMs: 30 }, { timeoutMs: 700 }]);
  });

  it("an answer after the step's timeout but within the grace is the subject's answer, not a hang", async () => {
    const slow = fakeSubject(() => new Promise<OperationOutcome>((resolve) => setTimeout(() => resolve(ok({ value: 1 })), 60)));
    const yaml = `${header}steps:\n  - op: runner.echo\n    timeoutMs: 10\n    with: {value: 1}\n    expect:\n      - {at: /value/value, equals: 1}\n`;
    const result = await runScenario(expandYaml(yaml)[0], slow, suiteFixtures);
    expect([result.status, result.message]).toEqual(["pass", ""]);
  });

  it("a fixture action that outlasts the scenario's step timeout is an error naming the fixture, the action and the bound", async () => {
    const stuck = liveInstance({}, { act: () => new Promise<never>(() => undefined) });
    const yaml = `${header}timeoutMs: 30\nfixtures: {srv: {kind: live}}\nsteps:\n  - fixture: srv\n    action: poke\n`;
    const result = await runScenario(
      expandYaml(yaml)[0],
      fakeSubject(() => ok({})),
      kindsOf(stuck),
    );
    expect(result.status).toBe("error");
    expect(result.message).toBe(
      'inline.yaml:7: step 1 (fixture srv, action poke): fixture "srv" action "poke" failed: fixture "srv" action "poke" did not finish within 30 ms',
    );
  });
});

describe("a scenario the engine cannot run is an error naming file, line and step", () => {
  const subject = () => fakeSubject(() => ok({ value: 1 }));

  it("a variable the input names but nothing set", async () => {
    const yaml = `${header}steps:\n  - op: runner.echo\n    with: {value: "\${nope}"}\n`;
    const result = await runScenario(expandYaml(yaml)[0], subject(), suiteFixtures);
    expect([result.status, result.message]).toEqual([
      "error",
      "inline.yaml:5: step 1 (op runner.echo): unknown variable ${nope}; known: none",
    ]);
  });

  it("a fixture step, snapshotOnSettle, or an assertion naming a fixture the run did not start", async () => {
    const fixtureStep = `${header}fixtures: {srv: {kind: live}}\nsteps:\n  - fixture: srv\n    action: poke\n`;
    expect(await stepError(contextFor(fixtureStep, subject()))).toBe(
      'inline.yaml:6: step 1 (fixture srv, action poke): fixture "srv" is not declared',
    );
    const settle = `${header}fixtures: {srv: {kind: live}}\nsteps:\n  - op: runner.echo\n    with: {value: 1}\n    snapshotOnSettle: [srv]\n`;
    expect(await stepError(contextFor(settle, subject()))).toBe(
      'inline.yaml:6: step 1 (op runner.echo): snapshotOnSettle names fixture "srv", which is not declared',
    );
    const assertion = `${header}steps:\n  - op: runner.echo\n    with: {value: 1}\n    expect:\n      - {fixture: srv, at: /open, equals: 0}\n`;
    expect(await stepError(contextFor(assertion, subject()))).toBe('assertion on undeclared fixture "srv"');
  });

  it("settled: true on a fixture the step did not snapshot on settle", async () => {
    const yaml = `${header}steps:\n  - op: runner.echo\n    with: {value: 1}\n    expect:\n      - {fixture: srv, at: /open, equals: 0, settled: true}\n`;
    expect(await stepError(contextFor(yaml, subject(), { srv: liveInstance() }))).toBe(
      'assertion with settled: true on fixture "srv", which the step\'s snapshotOnSettle does not list',
    );
  });

  it("an operation the protocol does not define", async () => {
    const yaml = `${header}steps:\n  - op: runner.nope\n    with: {value: 1}\n`;
    expect(await stepError(contextFor(yaml, subject()))).toBe('inline.yaml:5: step 1 (op runner.nope): unknown operation "runner.nope"');
  });

  it("an input that does not fit the operation, at the top or at a key", async () => {
    const top = `${header}steps:\n  - op: toolkit.execute\n    with: {toolkit: tk}\n`;
    expect(await stepError(contextFor(top, subject()))).toBe(
      "inline.yaml:5: step 1 (op toolkit.execute): input of toolkit.execute is invalid at (top): must have required property 'name'",
    );
    const key = `${header}steps:\n  - op: toolkit.execute\n    with: {toolkit: 1, name: x}\n`;
    expect(await stepError(contextFor(key, subject()))).toBe(
      "inline.yaml:5: step 1 (op toolkit.execute): input of toolkit.execute is invalid at /toolkit: must be string",
    );
  });
});

describe("the failure records of a step", () => {
  const failing = (error: object) => fakeSubject(() => ({ ok: false, elapsedMs: 1, error }) as OperationOutcome);

  it("a capture that finds nothing, and an unexpected error: every field, and nothing more", async () => {
    const yaml = `${header}steps:\n  - op: runner.echo\n    with: {value: 1}\n    capture: {got: /value/nothing}\n    expect:\n      - {at: /value/value, equals: 1}\n`;
    const error = { kind: "http", message: "boom" };
    const result = await runScenario(expandYaml(yaml)[0], failing(error), suiteFixtures);
    // The assertion on /value is not evaluated: an unexpected error says all there is to say about the step.
    expect(result.failures).toStrictEqual([
      {
        step: 0,
        line: 5,
        check: "step 1 (runner.echo) capture got",
        target: "result",
        at: "/value/nothing",
        matcher: "capture",
        actual: { error, elapsedMs: 1 },
        message: 'inline.yaml:5: step 1 (op runner.echo): capture "got": nothing at /value/nothing',
      },
      {
        step: 0,
        line: 5,
        check: "step 1 (runner.echo) error",
        target: "result",
        at: "/error",
        matcher: "no-error",
        actual: error,
        message: "inline.yaml:5: step 1 (op runner.echo): unexpected error (http): boom",
      },
    ]);
  });

  it("an error is expected only by an assertion on the result's /error: one on a fixture's or a variable's does not", async () => {
    const instance = liveInstance();
    const yaml = (assertion: string) =>
      `${header}fixtures: {srv: {kind: live}}\nsteps:\n  - op: runner.echo\n    with: {value: 1}\n    expect:\n      - ${assertion}\n`;
    const subject = failing({ kind: "http", message: "boom" });
    for (const assertion of ["{fixture: srv, at: /error, absent: true}", "{var: v, at: /error, absent: true}"]) {
      const result = await runScenario(expandYaml(yaml(assertion))[0], subject, kindsOf(instance));
      expect(result.failures?.map((failure) => failure.check)).toEqual(["step 1 (runner.echo) error"]);
    }
    const expected = await runScenario(expandYaml(yaml("{at: /error/kind, equals: http}"))[0], subject, kindsOf(instance));
    expect(expected.status).toBe("pass");
  });

  it("a failed assertion carries its because, expected, actual and diff; one with no value found carries neither", async () => {
    const yaml =
      `${header}steps:\n  - op: runner.echo\n    with: {value: 1}\n    expect:\n` +
      `      - {at: /value/value, equals: 2, because: the echo returns its input}\n      - {at: /value/other, present: true}\n`;
    const result = await runScenario(
      expandYaml(yaml)[0],
      fakeSubject(() => ok({ value: 1 })),
      suiteFixtures,
    );
    expect(result.failures).toStrictEqual([
      {
        step: 0,
        line: 8,
        check: "step 1 (runner.echo) /value/value",
        target: "result",
        at: "/value/value",
        matcher: "equals",
        because: "the echo returns its input",
        expected: 2,
        actual: 1,
        diff: [{ path: "/value/value", change: "changed", expected: 2, actual: 1 }],
        message: expect.stringMatching(/^inline\.yaml:8: step 1 \(op runner\.echo\), result at \/value\/value: not equal/),
      },
      {
        step: 0,
        line: 9,
        check: "step 1 (runner.echo) /value/other",
        target: "result",
        at: "/value/other",
        matcher: "present",
        message: "inline.yaml:9: step 1 (op runner.echo), result at /value/other: expected a key, found none",
      },
    ]);
  });

  it("a fixture step's own assertions read its result, {value: {}}", async () => {
    const yaml = `${header}fixtures: {srv: {kind: live}}\nsteps:\n  - fixture: srv\n    action: poke\n    expect:\n      - {at: "", equals: {value: {}}}\n`;
    const result = await runScenario(
      expandYaml(yaml)[0],
      fakeSubject(() => ok({})),
      kindsOf(liveInstance()),
    );
    expect([result.status, result.message]).toEqual(["pass", ""]);
  });
});

describe("assertions on a fixture", () => {
  const yaml = (assertion: string, settle = "") =>
    `${header}fixtures: {srv: {kind: live}}\nsteps:\n  - op: runner.echo\n    with: {value: 1}\n${settle}    expect:\n      - ${assertion}\n`;

  it("a fresh read that fails says only what it found; with eventuallyMs, for how long", async () => {
    const subject = fakeSubject(() => ok({ value: 1 }));
    const once = await runScenario(
      expandYaml(yaml("{fixture: srv, at: /open, equals: 0}"))[0],
      subject,
      kindsOf(liveInstance({ open: 1 })),
    );
    expect(once.message).toBe("inline.yaml:9: step 1 (op runner.echo), fixture srv at /open: not equal (1 difference)");
    const polled = await runScenario(
      expandYaml(yaml("{fixture: srv, at: /open, equals: 0, eventuallyMs: 40}"))[0],
      subject,
      kindsOf(liveInstance({ open: 1 })),
    );
    expect(polled.message).toBe(`${once.message} (still so after 40 ms)`);
  });

  it("holdsForMs: the break is reported with how long it had held, less than the hold asked for", async () => {
    const state = { open: 0 };
    const subject = fakeSubject(() => {
      setTimeout(() => (state.open = 1), 50); // a late reconnect
      return ok({ value: 1 });
    });
    const result = await runScenario(
      expandYaml(yaml("{fixture: srv, at: /open, equals: 0, holdsForMs: 5000}"))[0],
      subject,
      kindsOf(liveInstance(state)),
    );
    const held = /it held, then stopped holding (\d+) ms later; it must hold for 5000 ms\)$/.exec(result.message);
    expect(held, result.message).not.toBeNull();
    expect(Number(held![1])).toBeGreaterThanOrEqual(40);
    expect(Number(held![1])).toBeLessThan(5000);
  });

  it("settled: the snapshot lets through the few event-loop turns a closed socket takes to be seen (3), no more", async () => {
    // The subject closes its connection `turns` event-loop turns after answering.
    const closingAfter = (turns: number) => {
      const state = { open: 1 };
      const subject = fakeSubject(() => {
        const turn = (left: number) => setImmediate(() => (left > 1 ? turn(left - 1) : (state.open = 0)));
        turn(turns);
        return ok({ value: 1 });
      });
      return { subject, instance: liveInstance(state) };
    };
    const settled = yaml("{fixture: srv, at: /open, equals: 0, settled: true}", "    snapshotOnSettle: [srv]\n");
    for (const [turns, status] of [
      [1, "pass"],
      [3, "pass"],
      [4, "fail"],
    ] as const) {
      const { subject, instance } = closingAfter(turns);
      const result = await runScenario(expandYaml(settled)[0], subject, kindsOf(instance));
      expect([turns, result.status]).toEqual([turns, status]);
    }
  });
});

describe("a fixture snapshot that never comes", () => {
  /** Runs `run` on a fake clock (setTimeout only; the event loop's turns stay real), advancing it until `run` ends. */
  async function onFakeClock<T>(run: () => Promise<T>): Promise<T> {
    const realSetTimeout = globalThis.setTimeout;
    vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout"] });
    try {
      let done = false;
      const running = run().finally(() => (done = true));
      // A real millisecond per tick lets the run's file-system calls (its temporary folder) complete.
      for (let tick = 0; tick < 200 && !done; tick++) {
        await new Promise((resolve) => realSetTimeout(resolve, 1));
        await vi.advanceTimersByTimeAsync(500);
      }
      return await running;
    } finally {
      vi.useRealTimers();
    }
  }

  const hangs = () => new Promise<never>(() => undefined);
  /** The scenario against a subject that answers, beside a fixture whose snapshot never ends. */
  const withHungSnapshot = (yaml: string) =>
    onFakeClock(() =>
      runScenario(
        expandYaml(yaml)[0],
        fakeSubject(() => ok({ value: 1 })),
        kindsOf(liveInstance({}, { snapshot: hangs })),
      ),
    );

  it("on settle, is an error naming the fixture, not the subject (which answered)", async () => {
    const yaml = `${header}fixtures: {srv: {kind: live}}\nsteps:\n  - op: runner.echo\n    with: {value: 1}\n    snapshotOnSettle: [srv]\n`;
    const result = await withHungSnapshot(yaml);
    expect([result.status, result.message]).toEqual(["error", 'snapshot of fixture "srv" on settle did not finish within 5000 ms']);
  });

  it("for an assertion, is an error naming the fixture", async () => {
    const yaml = `${header}fixtures: {srv: {kind: live}}\nsteps:\n  - op: runner.echo\n    with: {value: 1}\n    expect:\n      - {fixture: srv, at: /open, equals: 0}\n`;
    const result = await withHungSnapshot(yaml);
    expect([result.status, result.message]).toEqual(["error", 'snapshot of fixture "srv" did not finish within 5000 ms']);
  });
});
