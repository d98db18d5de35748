import { existsSync } from "node:fs";
import { tmpdir } from "node:os";
import { basename, dirname } from "node:path";
import { describe, expect, it, vi } from "vitest";
import { runScenario } from "../../../conformance/engine/run.ts";
import { toolnexusSuite } from "../../../conformance/suite/toolnexus.ts";
import { sleep } from "../../../conformance/engine/time.ts";
import { SubjectBrokenError } from "../../../conformance/subjects/subject.ts";
import { expandYaml, fakeSubject, ok, recordingFixture } from "../helpers.ts";

/** The suite's fixture kinds, as the CLI runs with (for scenarios that declare none of the test's own). */
const suiteFixtures = { fixtureKinds: toolnexusSuite.fixtureKinds };
const kinds = (fixture: ReturnType<typeof recordingFixture>) => new Map([[fixture.kind.kind, fixture.kind]]);

const withFixture = `
id: t.fixture
title: t
spec: [core.tool-result]
fixtures: {srv: {kind: recording}}
steps:
  - fixture: srv
    action: poke
    with: {at: "\${srv.url}"}
  - op: runner.echo
    with: {value: "\${srv.url}"}
    capture: {echoed: /value/value}
    expect:
      - {at: /value/value, equals: "http://127.0.0.1:1/test"}
      - {var: echoed, at: "", matches: "^http"}
      - {fixture: srv, at: /open, equals: 0, eventuallyMs: 500}
`;

describe("runScenario", () => {
  it("passes, substituting fixture variables and captures, and polls an eventually-assertion", async () => {
    const fixture = recordingFixture([{ open: 1 }, { open: 1 }, { open: 0 }]);
    const subject = fakeSubject((_, input) => ok(input));
    const [scenario] = expandYaml(withFixture);
    const result = await runScenario(scenario, subject, { fixtureKinds: kinds(fixture) });
    expect(result).toMatchObject({ status: "pass", scenario: "t.fixture", subject: "fake" });
    expect(fixture.actions).toEqual([{ action: "poke", input: { at: "http://127.0.0.1:1/test" } }]);
    expect(fixture.stopped).toBe(1);
    expect(subject.resets).toBe(1);
  });

  it("fails with the differences, stops at the failing step, and still stops fixtures", async () => {
    const fixture = recordingFixture([{ open: 3 }]);
    const subject = fakeSubject(() => ok({ value: "other" }));
    const [scenario] = expandYaml(withFixture);
    const result = await runScenario(scenario, subject, { fixtureKinds: kinds(fixture) });
    expect(result.status).toBe("fail");
    // Steps are counted from 1 in messages, as a person counts; the line is the assertion's.
    expect(result.message).toMatch(/^inline\.yaml:14: step 2 \(op runner\.echo\), result at \/value\/value: not equal/);
    expect(result.failures?.[0].diff).toEqual([
      { path: "/value/value", change: "changed", expected: "http://127.0.0.1:1/test", actual: "other" },
    ]);
    expect(result.failures?.some((failure) => failure.message.includes("still so after 500 ms"))).toBe(true);
    expect(fixture.stopped).toBe(1);
  });

  it("holdsForMs: a 'nothing left' check that held once and then broke (a late reconnect) fails, saying so", async () => {
    const late = recordingFixture([{ open: 0 }, { open: 0 }, { open: 1 }]);
    const [scenario] = expandYaml(withFixture.replace("eventuallyMs: 500}", "eventuallyMs: 500, holdsForMs: 300}"));
    const result = await runScenario(
      scenario,
      fakeSubject((_, input) => ok(input)),
      { fixtureKinds: kinds(late) },
    );
    expect(result.status).toBe("fail");
    expect(result.message).toMatch(/at \/open: not equal.*it held, then stopped holding \d+ ms later; it must hold for 300 ms/s);
    const steady = recordingFixture([{ open: 1 }, { open: 0 }]);
    expect(
      (
        await runScenario(
          scenario,
          fakeSubject((_, input) => ok(input)),
          { fixtureKinds: kinds(steady) },
        )
      ).status,
    ).toBe("pass");
  });

  it("skips when the subject lacks a required capability, naming it, without starting anything", async () => {
    const fixture = recordingFixture();
    const [scenario] = expandYaml(withFixture.replace("fixtures:", "requires: [mcp.sse]\nfixtures:"));
    const result = await runScenario(
      scenario,
      fakeSubject(() => ok({})),
      { fixtureKinds: kinds(fixture) },
    );
    expect(result).toMatchObject({ status: "skip", message: "fake does not declare mcp.sse" });
    expect(fixture.started).toBe(0);
  });

  it("an unexpected typed error fails the step; an expected one passes", async () => {
    const failing = fakeSubject(() => ({ ok: false, elapsedMs: 5, error: { kind: "cancelled", type: "AbortError", message: "aborted" } }));
    const base = `id: t.err\ntitle: t\nspec: [core.tool-result]\nsteps:\n  - op: runner.echo\n    with: {value: 1}\n`;
    const unexpected = await runScenario(expandYaml(base)[0], failing, suiteFixtures);
    expect(unexpected.status).toBe("fail");
    expect(unexpected.message).toContain("unexpected error (cancelled, AbortError): aborted");
    const expected = await runScenario(
      expandYaml(`${base}    expect:\n      - {at: /error/kind, equals: cancelled}\n      - {at: /elapsedMs, atMost: 2000}\n`)[0],
      failing,
      suiteFixtures,
    );
    expect(expected.status).toBe("pass");
  });

  it("a broken subject makes the scenario an error with its stderr, and the run goes on", async () => {
    const broken = fakeSubject(() => {
      throw new SubjectBrokenError("runner exited with code 3", "Traceback: boom");
    });
    const [scenario] = expandYaml(`id: t.broken\ntitle: t\nspec: [core.tool-result]\nsteps:\n  - op: runner.echo\n    with: {value: 1}\n`);
    const result = await runScenario(scenario, broken, suiteFixtures);
    expect(result).toMatchObject({ status: "error", message: "runner exited with code 3", stderr: "Traceback: boom" });
    expect(broken.resets).toBe(1);
  });

  it("a subject that never answers is cut off at the step timeout plus grace, as an error", async () => {
    const hung = fakeSubject(() => new Promise(() => undefined));
    const [scenario] = expandYaml(
      `id: t.hang\ntitle: t\nspec: [core.tool-result]\ntimeoutMs: 50\nsteps:\n  - op: runner.echo\n    with: {value: 1}\n`,
    );
    const started = Date.now();
    const result = await runScenario(scenario, hung, suiteFixtures);
    expect(result.status).toBe("error");
    expect(result.message).toContain("the subject hung");
    expect(Date.now() - started).toBeLessThan(8000);
  });

  it("a fixture's contract violations fail an otherwise passing scenario", async () => {
    const fixture = recordingFixture([{ open: 0 }], ["request 0: /messages/0/role must be one of ..."]);
    const [scenario] = expandYaml(withFixture);
    const result = await runScenario(
      scenario,
      fakeSubject((_, input) => ok(input)),
      { fixtureKinds: kinds(fixture) },
    );
    expect(result.status).toBe("fail");
    expect(result.message).toContain("fixture srv saw a contract violation: request 0");
  });

  it("a fixture that never starts, or never stops, is a bounded error that names it", async () => {
    const hangs = () => new Promise<never>(() => undefined);
    const stuckStart = recordingFixture();
    stuckStart.kind = { ...stuckStart.kind, start: hangs };
    const [scenario] = expandYaml(withFixture);
    const subject = fakeSubject((_, input) => ok(input));
    const timeouts = { startMs: 100, stopMs: 100 };
    const notStarted = await runScenario(scenario, subject, { fixtureKinds: kinds(stuckStart), fixtureTimeouts: timeouts });
    expect(notStarted).toMatchObject({ status: "error" });
    expect(notStarted.message).toContain(
      'fixture "srv" (recording) failed to start: starting fixture "srv" (recording) did not finish within 100 ms',
    );
    expect(subject.calls).toEqual([]);

    const stuckStop = recordingFixture([{ open: 0 }]);
    const start = stuckStop.kind.start.bind(stuckStop.kind);
    stuckStop.kind = { ...stuckStop.kind, start: async (options, context) => ({ ...(await start(options, context)), stop: hangs }) };
    const notStopped = await runScenario(scenario, subject, { fixtureKinds: kinds(stuckStop), fixtureTimeouts: timeouts });
    expect(notStopped).toMatchObject({ status: "error", message: 'stopping fixture "srv" did not finish within 100 ms' });
  });

  it("what the subject left running after its reset fails the scenario, naming it", async () => {
    const leaky = recordingFixture([{ open: 0 }]);
    const start = leaky.kind.start.bind(leaky.kind);
    leaky.kind = {
      ...leaky.kind,
      start: async (options, context) => ({ ...(await start(options, context)), leftovers: async () => ["pid 4242 still running"] }),
    };
    const [scenario] = expandYaml(withFixture);
    const subject = fakeSubject((_, input) => ok(input));
    const result = await runScenario(scenario, subject, { fixtureKinds: kinds(leaky) });
    expect(result).toMatchObject({ status: "fail", message: "fixture srv: pid 4242 still running" });
    expect(subject.resets).toBe(1);
    expect(leaky.stopped).toBe(1);
  });

  it("an input that does not fit the operation is an error that says where", async () => {
    const [scenario] = expandYaml(
      `id: t.input\ntitle: t\nspec: [core.tool-result]\nsteps:\n  - op: toolkit.execute\n    with: {toolkit: tk}\n`,
    );
    const result = await runScenario(
      scenario,
      fakeSubject(() => ok({})),
      suiteFixtures,
    );
    expect(result.status).toBe("error");
    expect(result.message).toMatch(/^inline\.yaml:5: step 1 \(op toolkit\.execute\): input of toolkit\.execute is invalid/);
  });

  it("names a step by its 1-based number and what it does (the op a matrix path chose, or the fixture action), at its line", async () => {
    const matrix =
      `id: t.steps\ntitle: t\nspec: [core.tool-result]\nmatrix: [openai-stream]\nfixtures: {srv: {kind: recording}}\n` +
      `steps:\n  - fixture: srv\n    action: poke\n  - op: "\${path.op}"\n    title: the call\n    with: {client: c, prompt: hi}\n`;
    const [scenario] = expandYaml(matrix);
    const failing = fakeSubject(() => ({ ok: false, elapsedMs: 1, error: { kind: "http", message: "boom" } }));
    const result = await runScenario(scenario, failing, { fixtureKinds: kinds(recordingFixture()) });
    expect(result.message).toBe('inline.yaml:9: step 2 (op client.stream, "the call"): unexpected error (http): boom');
    expect(result.failures?.[0].step).toBe(1); // the report keeps the 0-based index its schema defines

    const badAction = recordingFixture();
    badAction.kind = {
      ...badAction.kind,
      start: async (options, context) => ({
        ...(await recordingFixture().kind.start(options, context)),
        act: async () => {
          throw new Error("no");
        },
      }),
    };
    const broken = await runScenario(scenario, failing, { fixtureKinds: kinds(badAction) });
    expect(broken.message).toBe('inline.yaml:7: step 1 (fixture srv, action poke): fixture "srv" action "poke" failed: no');
  });

  it("names each failure by a check id (step, op, target, pointer), evaluating every assertion of the failing step and no later step", async () => {
    const fixture = recordingFixture([{ open: 3 }], ["request 0: /model must be string"]);
    const yaml = `${withFixture.replace("eventuallyMs: 500}", "eventuallyMs: 50}")}      - {at: /value/value, matches: "^x"}
      - {at: "", present: true}
  - op: runner.echo
    with: {value: 2}
    expect:
      - {at: /value/value, equals: 3}
`;
    const [scenario] = expandYaml(yaml);
    const result = await runScenario(
      scenario,
      fakeSubject(() => ok({ value: "other" })),
      { fixtureKinds: kinds(fixture) },
    );
    expect(result.status).toBe("fail");
    // Every assertion of step 2 is evaluated after the first fails; step 3 is not run; violations are reported as before (not after a failure).
    expect(result.failures?.map((failure) => failure.check)).toEqual([
      "step 2 (runner.echo) /value/value (1)",
      'step 2 (runner.echo) var echoed ""',
      "step 2 (runner.echo) srv /open",
      "step 2 (runner.echo) /value/value (2)",
    ]);
    expect(result.failures?.map((failure) => failure.line)).toEqual([14, 15, 16, 17]);

    const errored = await runScenario(
      expandYaml(
        `id: t.err\ntitle: t\nspec: [core.tool-result]\nsteps:\n  - op: runner.echo\n    with: {value: 1}\n    capture: {got: /value/nothing}\n`,
      )[0],
      fakeSubject(() => ({ ok: false, elapsedMs: 1, error: { kind: "http", message: "boom" } })),
      suiteFixtures,
    );
    expect(errored.failures?.map((failure) => [failure.check, failure.message])).toEqual([
      ["step 1 (runner.echo) capture got", 'inline.yaml:5: step 1 (op runner.echo): capture "got": nothing at /value/nothing'],
      ["step 1 (runner.echo) error", "inline.yaml:5: step 1 (op runner.echo): unexpected error (http): boom"],
    ]);

    const violating = await runScenario(
      expandYaml(withFixture)[0],
      fakeSubject((_, input) => ok(input)),
      { fixtureKinds: kinds(recordingFixture([{ open: 0 }], ["request 0: /model must be string"])) },
    );
    expect(violating.failures?.map((failure) => failure.check)).toEqual(["fixture srv contract"]);
  });

  it("hands each operation step (with its position and input) and each fixture's final snapshot to the hooks", async () => {
    const fixture = recordingFixture([{ open: 1 }, { open: 0 }]);
    const seen: unknown[] = [];
    const snapshots = new Map<string, unknown>();
    const result = await runScenario(
      expandYaml(withFixture)[0],
      fakeSubject((_, input) => ok(input)),
      {
        fixtureKinds: kinds(fixture),
        onOperation: (step, input, outcome) => seen.push({ index: step.index, line: step.line, input, outcome }),
        onFinalSnapshot: (name, snapshot) => snapshots.set(name, snapshot),
      },
    );
    expect(result.status).toBe("pass");
    expect(seen).toEqual([
      {
        index: 1,
        line: 10,
        input: { value: "http://127.0.0.1:1/test" },
        outcome: { value: { value: "http://127.0.0.1:1/test" }, elapsedMs: 1 },
      },
    ]);
    expect([...snapshots]).toEqual([["srv", { open: 0 }]]);
  });
});

describe("runScenario's result", () => {
  const echo = `id: t.result\ntitle: t\nspec: [core.tool-result]\nsteps:\n  - op: runner.echo\n    with: {value: 1}\n`;

  it("a pass carries no message, failures, notes or stderr, and its duration", async () => {
    const result = await runScenario(
      expandYaml(echo)[0],
      fakeSubject((_, input) => ok(input)),
      suiteFixtures,
    );
    expect(result).toStrictEqual({
      scenario: "t.result",
      baseId: "t.result",
      title: "t",
      file: "inline.yaml",
      subject: "fake",
      spec: ["core.tool-result"],
      tags: [],
      status: "pass",
      message: "",
      durationMs: expect.any(Number),
    });
    expect(result.durationMs).toBeGreaterThanOrEqual(0);
    expect(result.durationMs).toBeLessThan(30_000);
  });

  it("the notes a runner drains belong with each run result, not with a skip (nothing ran)", async () => {
    const subject = fakeSubject((_, input) => ok(input));
    let drained = 0;
    subject.drainNotes = () => (drained++, ["toolkit substituted"]);
    expect((await runScenario(expandYaml(echo)[0], subject, suiteFixtures)).notes).toEqual(["toolkit substituted"]);
    const skipped = await runScenario(
      expandYaml(echo.replace("steps:", "requires: [mcp.sse, mcp.http]\nsteps:"))[0],
      subject,
      suiteFixtures,
    );
    expect(skipped).toMatchObject({ status: "skip", message: "fake does not declare mcp.sse, mcp.http" });
    expect("notes" in skipped).toBe(false);
    expect(drained).toBe(1);
  });

  it("stderr the subject drained is attached to a failure; a broken subject's own stderr wins; an error of another kind has none of its own", async () => {
    const failing = fakeSubject(() => ok({ value: 2 }));
    failing.drainStderr = () => "warning: deprecated";
    const fail = await runScenario(expandYaml(`${echo}    expect:\n      - {at: /value/value, equals: 1}\n`)[0], failing, suiteFixtures);
    expect([fail.status, fail.stderr]).toEqual(["fail", "warning: deprecated"]);

    const odd = fakeSubject(() => {
      throw Object.assign(new Error("not a SubjectBrokenError"), { stderr: "the error's own" });
    });
    odd.drainStderr = () => "drained";
    expect(await runScenario(expandYaml(echo)[0], odd, suiteFixtures)).toMatchObject({
      status: "error",
      message: "not a SubjectBrokenError",
      stderr: "drained",
    });
  });

  it("an error with no message is still an error, and says so (it once passed: its empty message read as none)", async () => {
    const bare = fakeSubject(() => {
      throw new SubjectBrokenError("");
    });
    expect(await runScenario(expandYaml(echo)[0], bare, suiteFixtures)).toMatchObject({
      status: "error",
      message: "SubjectBrokenError (with no message)",
    });
    const thrownString = fakeSubject(() => {
      throw "";
    });
    expect(await runScenario(expandYaml(echo)[0], thrownString, suiteFixtures)).toMatchObject({
      status: "error",
      message: "an error with no message",
    });
    const fixture = recordingFixture([{ open: 0 }]);
    const start = fixture.kind.start.bind(fixture.kind);
    fixture.kind = {
      ...fixture.kind,
      start: async (options, context) => ({
        ...(await start(options, context)),
        stop: async () => {
          throw new Error();
        },
      }),
    };
    const notStopped = await runScenario(
      expandYaml(withFixture)[0],
      fakeSubject((_, input) => ok(input)),
      { fixtureKinds: kinds(fixture) },
    );
    expect(notStopped).toMatchObject({ status: "error", message: "Error (with no message)" });
  });

  it("fixture violations and leftovers are counted against the scenario's last step, or step 0 when the path runs none", async () => {
    const fixture = recordingFixture([{ open: 0 }], ["request 0: bad"]);
    const three = `${withFixture}  - op: runner.echo\n    with: {value: 2}\n`;
    const result = await runScenario(
      expandYaml(three)[0],
      fakeSubject((_, input) => ok(input)),
      { fixtureKinds: kinds(fixture) },
    );
    expect(result.failures?.map((failure) => [failure.check, failure.step])).toEqual([["fixture srv contract", 2]]);
    const none = `id: t.none\ntitle: t\nspec: [core.tool-result]\nmatrix: [openai-stream]\nfixtures: {srv: {kind: recording}}\nsteps:\n  - op: runner.echo\n    when: {path.style: anthropic}\n    with: {value: 1}\n`;
    const [scenario] = expandYaml(none);
    expect(scenario.steps).toEqual([]);
    const empty = await runScenario(
      scenario,
      fakeSubject((_, input) => ok(input)),
      { fixtureKinds: kinds(recordingFixture([{}], ["request 0: bad"])) },
    );
    expect(empty.failures?.map((failure) => [failure.check, failure.step])).toEqual([["fixture srv contract", 0]]);
  });

  it("fixtures get a folder of the run's own, /tmp/tnc-*, removed when the scenario ends", async () => {
    const fixture = recordingFixture([{ open: 0 }]);
    const start = fixture.kind.start.bind(fixture.kind);
    const dirs: string[] = [];
    fixture.kind = { ...fixture.kind, start: (options, context) => (dirs.push(context.workDir), start(options, context)) };
    await runScenario(
      expandYaml(withFixture)[0],
      fakeSubject((_, input) => ok(input)),
      { fixtureKinds: kinds(fixture) },
    );
    expect(dirs).toHaveLength(1);
    expect(dirname(dirname(dirs[0]))).toBe(tmpdir());
    expect(basename(dirname(dirs[0]))).toMatch(/^tnc-/);
    expect(basename(dirs[0])).toBe("srv");
    expect(existsSync(dirname(dirs[0]))).toBe(false);
  });

  it("the first error is the message; problems stopping fixtures after it are not, and alone are joined", async () => {
    const failingStop = (text: string) => {
      const fixture = recordingFixture([{ open: 0 }]);
      const start = fixture.kind.start.bind(fixture.kind);
      const stop = async () => {
        throw new Error(text);
      };
      return { ...fixture.kind, start: async (...args: Parameters<typeof start>) => ({ ...(await start(...args)), stop }) };
    };
    const broken = fakeSubject(() => {
      throw new SubjectBrokenError("runner exited");
    });
    const one = new Map([["recording", failingStop("stop a failed")]]);
    expect(await runScenario(expandYaml(withFixture)[0], broken, { fixtureKinds: one })).toMatchObject({
      status: "error",
      message: "runner exited",
    });
    const two = `${withFixture.replace("fixtures: {srv: {kind: recording}}", "fixtures: {srv: {kind: recording}, other: {kind: second}}")}`;
    const both = new Map([
      ["recording", failingStop("stop a failed")],
      ["second", { ...failingStop("stop b failed"), kind: "second" }],
    ]);
    expect(
      await runScenario(
        expandYaml(two)[0],
        fakeSubject((_, input) => ok(input)),
        { fixtureKinds: both },
      ),
    ).toMatchObject({ status: "error", message: "stop a failed; stop b failed" });
  });

  it("a fixture that takes a while to start is within the default start bound", async () => {
    const slow = recordingFixture([{ open: 0 }]);
    const start = slow.kind.start.bind(slow.kind);
    slow.kind = { ...slow.kind, start: async (options, context) => (await sleep(30), start(options, context)) };
    const result = await runScenario(
      expandYaml(withFixture)[0],
      fakeSubject((_, input) => ok(input)),
      { fixtureKinds: kinds(slow) },
    );
    expect([result.status, result.message]).toEqual(["pass", ""]);
  });
});

describe("the subject's reset after the steps", () => {
  const echo = `id: t.reset\ntitle: t\nspec: [core.tool-result]\nsteps:\n  - op: runner.echo\n    with: {value: 1}\n`;

  it("is given the reset bound, and may take its time", async () => {
    const subject = fakeSubject((_, input) => ok(input));
    const given: unknown[] = [];
    subject.reset = async (options) => (given.push(options), sleep(30));
    expect((await runScenario(expandYaml(echo)[0], subject, suiteFixtures)).status).toBe("pass");
    expect(given).toEqual([{ timeoutMs: 10_000 }]);
  });

  it("that fails is an error saying so, with a broken subject's stderr", async () => {
    const subject = fakeSubject((_, input) => ok(input));
    subject.reset = async () => {
      throw new Error("handle t1 would not close");
    };
    expect(await runScenario(expandYaml(echo)[0], subject, suiteFixtures)).toMatchObject({
      status: "error",
      message: "reset failed: handle t1 would not close",
    });
    subject.reset = async () => {
      throw new SubjectBrokenError("runner exited", "Traceback");
    };
    expect(await runScenario(expandYaml(echo)[0], subject, suiteFixtures)).toMatchObject({
      status: "error",
      message: "reset failed: runner exited",
      stderr: "Traceback",
    });
  });

  it("that never finishes is cut off at the reset bound plus grace, naming the subject", async () => {
    const subject = fakeSubject((_, input) => ok(input));
    subject.reset = () => new Promise<never>(() => undefined);
    const realSetTimeout = globalThis.setTimeout;
    vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout"] });
    try {
      let done = false;
      const running = runScenario(expandYaml(echo)[0], subject, suiteFixtures).finally(() => (done = true));
      for (let tick = 0; tick < 100 && !done; tick++) {
        await new Promise((resolve) => realSetTimeout(resolve, 1));
        await vi.advanceTimersByTimeAsync(1_000);
      }
      expect(await running).toMatchObject({ status: "error", message: "reset failed: resetting fake did not finish within 12000 ms" });
    } finally {
      vi.useRealTimers();
    }
  });
});
