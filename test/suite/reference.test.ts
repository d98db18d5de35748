// The whole scenario suite against the reference, one vitest test per expanded scenario id: first
// in-process, then through the `ts` runner, whose every step result must equal the in-process one
// (what differs between the two can only be the protocol's doing).
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { defaultScenarioDir } from "../../conformance/cli/paths.ts";
import { runScenario, type StepResult } from "../../conformance/engine/run.ts";
import { formatResult } from "../../conformance/report/console.ts";
import { judge } from "../../conformance/report/baseline.ts";
import type { ExpandedStep } from "../../conformance/scenario/expand.ts";
import { formatDiagnostic } from "../../conformance/scenario/load.ts";
import { lintPaths } from "../../conformance/scenario/lint.ts";
import { createReferenceSubject } from "../../conformance/subjects/reference/index.ts";
import { openRunner } from "../../conformance/subjects/runner-registry.ts";
import type { RunnerSubject } from "../../conformance/subjects/runner.ts";

const lint = await lintPaths([defaultScenarioDir]);
const inProcess = createReferenceSubject();
const inProcessSteps = new Map<string, unknown[]>();
let tsRunner: RunnerSubject;

beforeAll(async () => {
  tsRunner = await openRunner("ts");
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

describe("scenario files", () => {
  it("lint cleanly", () => {
    expect(lint.diagnostics.map(formatDiagnostic).join("\n")).toBe("");
  });
});

describe("reference (in-process)", () => {
  for (const scenario of lint.expanded) {
    it(scenario.id, async () => {
      const steps: unknown[] = [];
      const result = judge(await runScenario(scenario, inProcess, { onOperation: stepsOf(steps) }), new Map());
      inProcessSteps.set(scenario.id, steps);
      expect(result.status, formatResult(result)).toBe("pass");
    });
  }
});

describe("reference through the ts runner (same results as in-process)", () => {
  for (const scenario of lint.expanded) {
    it(scenario.id, async () => {
      const steps: unknown[] = [];
      const result = judge(await runScenario(scenario, tsRunner, { onOperation: stepsOf(steps) }), new Map());
      expect(result.status, formatResult(result)).toBe("pass");
      expect(steps).toEqual(inProcessSteps.get(scenario.id));
    });
  }
});
