// The fixtures of one scenario run, each held under the name the scenario gave it: starting them
// (bounded, and stopped even when a start finishes late), and what they report after the steps.
import { join } from "node:path";
import type { FixtureInstance, FixtureKind } from "../scenario/fixture.ts";
import type { Failure } from "../schema/report.types.ts";
import type { ExpandedScenario } from "../scenario/expand.ts";
import { makeFailure } from "./failure.ts";
import { withTimeout } from "./time.ts";

/** The scenario cannot go on: the subject or a fixture broke, or the scenario itself is wrong. */
export class ScenarioError extends Error {}

/** A fixture the engine started, under the name the scenario gave it. */
export interface RunningFixture {
  name: string;
  kind: string;
  instance: FixtureInstance;
}

export async function startFixtures(
  scenario: ExpandedScenario,
  fixtures: Map<string, RunningFixture>,
  workDir: string,
  kinds: ReadonlyMap<string, FixtureKind>,
  startTimeoutMs: number,
): Promise<void> {
  for (const [name, declared] of Object.entries(scenario.fixtures)) {
    const kind = kinds.get(declared.kind);
    if (!kind) throw new ScenarioError(`fixture "${name}": unknown kind "${declared.kind}"`);
    const fixtureDir = join(workDir, name);
    try {
      const start = kind.start((declared.options ?? {}) as Record<string, unknown>, { scenarioId: scenario.id, workDir: fixtureDir });
      try {
        const instance = await withTimeout(start, startTimeoutMs, `starting fixture "${name}" (${declared.kind})`);
        fixtures.set(name, { name, kind: declared.kind, instance });
      } catch (error) {
        // A start that finishes after we gave up must still be stopped, or its server outlives the run.
        start.then((instance) => instance.stop()).catch(() => undefined);
        throw error;
      }
    } catch (error) {
      throw new ScenarioError(
        `fixture "${name}" (${declared.kind}) failed to start: ${error instanceof Error ? error.message : String(error)}`,
      );
    }
  }
}

export async function fixtureViolations(fixtures: Map<string, RunningFixture>, lastStep: number): Promise<Failure[]> {
  const failures: Failure[] = [];
  for (const { name, instance } of fixtures.values()) {
    for (const violation of (await instance.violations?.()) ?? []) {
      failures.push(
        makeFailure({ afterStep: lastStep }, `fixture ${name} contract`, {
          target: `fixture ${name}`,
          matcher: "contract",
          text: `fixture ${name} saw a contract violation: ${violation}`,
        }),
      );
    }
  }
  return failures;
}

export async function fixtureLeftovers(fixtures: Map<string, RunningFixture>, lastStep: number): Promise<Failure[]> {
  const found = await Promise.all(
    [...fixtures.values()].map(async ({ name, instance }) =>
      (await withTimeout(instance.leftovers?.() ?? Promise.resolve([]), 5_000, `leftovers of fixture "${name}"`)).map((text) => ({
        name,
        text,
      })),
    ),
  );
  return found.flat().map(({ name, text }) =>
    makeFailure({ afterStep: lastStep }, `fixture ${name} leftovers`, {
      target: `fixture ${name}`,
      matcher: "leftovers",
      text: `fixture ${name}: ${text}`,
    }),
  );
}
