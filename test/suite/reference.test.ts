// The whole scenario suite against the reference, one vitest test per expanded scenario id: first
// in-process, then through the `ts` runner, whose every step result must equal the in-process one
// (what differs between the two can only be the protocol's doing).
import picomatch from "picomatch";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { defaultScenarioDir } from "../../conformance/scenario/scenario-id.ts";
import { runScenario, type StepResult } from "../../conformance/engine/run.ts";
import { formatResult } from "../../conformance/report/console.ts";
import { judge } from "../../conformance/report/baseline.ts";
import { expandScenario, type ExpandedScenario, type ExpandedStep } from "../../conformance/scenario/expand.ts";
import { findScenarioFiles, formatDiagnostic, readScenarioFile, type LoadedScenario } from "../../conformance/scenario/load.ts";
import { createReferenceSubject } from "../../conformance/subjects/reference/index.ts";
import type { RunnerSubject } from "../../conformance/subjects/runner.ts";
import { toolnexusSuite } from "../../conformance/suite/toolnexus.ts";

// Mutation testing (npm run mutate, vitest.mutate.config.ts) sets this: Stryker switches mutants
// inside this process only, so the out-of-process pass could not tell mutants apart, and it reloads
// this file for every mutant, so the scenarios are read without lint (seconds each time; the normal
// run lints them).
const inProcessOnly = process.env.TNC_SUITE_IN_PROCESS_ONLY === "1";

async function readWithoutLint(): Promise<{ diagnostics: []; expanded: ExpandedScenario[] }> {
  const files = await findScenarioFiles([defaultScenarioDir]);
  const loaded = await Promise.all(files.map(async (file) => (await readScenarioFile(file)).scenario as LoadedScenario));
  return { diagnostics: [], expanded: loaded.flatMap((scenario) => expandScenario(scenario, toolnexusSuite)) };
}

const lint = inProcessOnly ? await readWithoutLint() : await (await import("../../conformance/scenario/lint.ts")).lintPaths([defaultScenarioDir], toolnexusSuite);
// TNC_SUITE_FILTER (a glob over scenario ids, e.g. '!mcp/**'): a mutation run over one folder needs only
// the scenarios that reach it, and leaves out timing-sensitive ones a busy machine fails at random.
const scenarios = process.env.TNC_SUITE_FILTER ? lint.expanded.filter((scenario) => picomatch.isMatch(scenario.id, process.env.TNC_SUITE_FILTER!)) : lint.expanded;
const inProcess = createReferenceSubject();
const inProcessSteps = new Map<string, unknown[]>();
let tsRunner: RunnerSubject;

beforeAll(async () => {
  if (!inProcessOnly) tsRunner = await (await import("../../conformance/subjects/runner-registry.ts")).openRunner("ts");
});
afterAll(async () => {
  await inProcess.close();
  await tsRunner?.close();
});

/** A step result without what legitimately differs between two runs: timings, ports, temp paths, pids. */
function comparable(result: StepResult): unknown {
  const { elapsedMs: _elapsed, ...rest } = result;
  return JSON.parse(
    JSON.stringify(rest)
      .replace(/127\.0\.0\.1:\d+/g, "127.0.0.1:PORT")
      // A scenario's folder, directly in /tmp or in the test run's own temporary folder.
      .replace(/\/tmp\/(?:[\w.-]+\/)*tnc-[^/"\\]+/g, "/tmp/TNC")
      .replace(/"pid":\d+/g, '"pid":0'),
  );
}

function stepsOf(scenarioSteps: unknown[]) {
  return (step: ExpandedStep, _input: unknown, result: StepResult) => scenarioSteps.push({ index: step.index, result: comparable(result) });
}

describe.skipIf(inProcessOnly)("scenario files", () => {
  it("lint cleanly", () => {
    expect(lint.diagnostics.map(formatDiagnostic).join("\n")).toBe("");
  });
});

describe("reference (in-process)", () => {
  for (const scenario of scenarios) {
    it(scenario.id, async () => {
      const steps: unknown[] = [];
      const result = judge(await runScenario(scenario, inProcess, { fixtureKinds: toolnexusSuite.fixtureKinds, onOperation: stepsOf(steps) }), new Map());
      inProcessSteps.set(scenario.id, steps);
      expect(result.status, formatResult(result)).toBe("pass");
    });
  }
});

describe.skipIf(inProcessOnly)("reference through the ts runner (same results as in-process)", () => {
  for (const scenario of scenarios) {
    it(scenario.id, async () => {
      const steps: unknown[] = [];
      const result = judge(await runScenario(scenario, tsRunner, { fixtureKinds: toolnexusSuite.fixtureKinds, onOperation: stepsOf(steps) }), new Map());
      expect(result.status, formatResult(result)).toBe("pass");
      expect(steps).toEqual(inProcessSteps.get(scenario.id));
    });
  }
});
