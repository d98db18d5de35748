// The fixtures of one scenario run (engine/fixtures.ts): starting each under its name with its options
// and its own folder, an unknown kind or a failed or late start as a ScenarioError naming the fixture
// (a late start still stopped), and the failures a fixture reports after the steps (contract
// violations, leftovers), each with the check id, target and matcher a baseline and a report show.
import { join } from "node:path";
import { afterEach, describe, expect, it, vi } from "vitest";
import {
  fixtureLeftovers,
  fixtureViolations,
  ScenarioError,
  startFixtures,
  type RunningFixture,
} from "../../../conformance/engine/fixtures.ts";
import { TimeoutError, withTimeout } from "../../../conformance/engine/time.ts";
import type { ExpandedScenario } from "../../../conformance/scenario/expand.ts";
import type { FixtureContext, FixtureInstance, FixtureKind } from "../../../conformance/scenario/fixture.ts";

/** Only what startFixtures reads of a scenario. */
const scenarioWith = (fixtures: ExpandedScenario["fixtures"]) => ({ id: "t.fixtures", fixtures }) as unknown as ExpandedScenario;

const instance = (more: Partial<FixtureInstance> = {}): FixtureInstance => ({
  vars: {},
  act: async () => undefined,
  snapshot: async () => ({}),
  stop: async () => undefined,
  ...more,
});

/** A kind whose start is `start`; it records the options and context each start got. */
function kindOf(kind: string, start: (options: Record<string, unknown>, context: FixtureContext) => Promise<FixtureInstance>) {
  const starts: { options: Record<string, unknown>; context: FixtureContext }[] = [];
  const fixtureKind: FixtureKind = {
    kind,
    actions: [],
    varKeys: [],
    optionsSchema: {},
    start: (options, context) => {
      starts.push({ options, context });
      return start(options, context);
    },
  } as FixtureKind;
  return { fixtureKind, starts };
}

const kindsOf = (...kinds: FixtureKind[]) => new Map(kinds.map((kind) => [kind.kind, kind]));

async function startError(scenario: ExpandedScenario, kinds: ReadonlyMap<string, FixtureKind>, timeoutMs = 1_000): Promise<Error> {
  const error = await startFixtures(scenario, new Map(), "/work-dir", kinds, timeoutMs).then(
    () => undefined,
    (caught: unknown) => caught,
  );
  expect(error).toBeInstanceOf(ScenarioError);
  return error as Error;
}

describe("startFixtures", () => {
  it("starts each fixture with its options and its own folder, held under the scenario's name for it", async () => {
    const started = instance();
    const { fixtureKind, starts } = kindOf("recording", async () => started);
    const fixtures = new Map<string, RunningFixture>();
    await startFixtures(
      scenarioWith({ srv: { kind: "recording", options: { flavour: "fancy" } }, other: { kind: "recording" } }),
      fixtures,
      "/work-dir",
      kindsOf(fixtureKind),
      1_000,
    );
    expect(starts).toEqual([
      { options: { flavour: "fancy" }, context: { scenarioId: "t.fixtures", workDir: join("/work-dir", "srv") } },
      { options: {}, context: { scenarioId: "t.fixtures", workDir: join("/work-dir", "other") } },
    ]);
    expect([...fixtures.entries()]).toEqual([
      ["srv", { name: "srv", kind: "recording", instance: started }],
      ["other", { name: "other", kind: "recording", instance: started }],
    ]);
  });

  it("an unknown kind: names the fixture and the kind, starting nothing", async () => {
    const { fixtureKind, starts } = kindOf("recording", async () => instance());
    const error = await startError(scenarioWith({ srv: { kind: "nope" } }), kindsOf(fixtureKind));
    expect(error.message).toBe('fixture "srv": unknown kind "nope"');
    expect(starts).toEqual([]);
  });

  it("a start that fails: names the fixture, its kind and the cause", async () => {
    const { fixtureKind } = kindOf("broken", async () => {
      throw new Error("planted: port in use");
    });
    const error = await startError(scenarioWith({ srv: { kind: "broken" } }), kindsOf(fixtureKind));
    expect(error.message).toBe('fixture "srv" (broken) failed to start: planted: port in use');
  });

  it("a start that finishes late: fails with the bound, and the late instance is still stopped", async () => {
    let stop!: () => void;
    const stopped = new Promise<void>((resolve) => (stop = resolve));
    const late = instance({ stop: async () => stop() });
    const { fixtureKind } = kindOf("slow", () => new Promise((resolve) => setTimeout(() => resolve(late), 20)));
    const error = await startError(scenarioWith({ srv: { kind: "slow" } }), kindsOf(fixtureKind), 1);
    expect(error.message).toBe('fixture "srv" (slow) failed to start: starting fixture "srv" (slow) did not finish within 1 ms');
    await withTimeout(stopped, 2_000, "stopping the late fixture");
  });
});

const running = (name: string, more: Partial<FixtureInstance>): [string, RunningFixture] => [
  name,
  { name, kind: "recording", instance: instance(more) },
];

describe("fixtureViolations", () => {
  it("one failure per violation, counted against the last step, with check id, target and matcher", async () => {
    const fixtures = new Map([
      running("llm", { violations: async () => ["body is not a chat request", "no model"] }),
      running("quiet", {}),
    ]);
    expect(await fixtureViolations(fixtures, 3)).toEqual([
      {
        step: 3,
        check: "fixture llm contract",
        target: "fixture llm",
        matcher: "contract",
        message: "fixture llm saw a contract violation: body is not a chat request",
      },
      {
        step: 3,
        check: "fixture llm contract",
        target: "fixture llm",
        matcher: "contract",
        message: "fixture llm saw a contract violation: no model",
      },
    ]);
  });
});

describe("fixtureLeftovers", () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it("one failure per leftover, counted against the last step, with check id, target and matcher", async () => {
    const fixtures = new Map([running("srv", { leftovers: async () => ["stdio child 42 still runs"] }), running("quiet", {})]);
    expect(await fixtureLeftovers(fixtures, 2)).toEqual([
      {
        step: 2,
        check: "fixture srv leftovers",
        target: "fixture srv",
        matcher: "leftovers",
        message: "fixture srv: stdio child 42 still runs",
      },
    ]);
  });

  it("a fixture that never answers: gives up after 5 s, naming the fixture", async () => {
    vi.useFakeTimers();
    const fixtures = new Map([running("srv", { leftovers: () => new Promise<string[]>(() => undefined) })]);
    const outcome = fixtureLeftovers(fixtures, 2).catch((caught: unknown) => caught);
    await vi.advanceTimersByTimeAsync(5_000);
    const error = await outcome;
    expect(error).toBeInstanceOf(TimeoutError);
    expect((error as Error).message).toBe('leftovers of fixture "srv" did not finish within 5000 ms');
  });
});
