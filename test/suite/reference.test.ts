// The whole scenario suite against the in-process reference, one vitest test per expanded scenario
// id, so `npm test` lists each and a failure shows the harness's own diff.
import { afterAll, describe, expect, it } from "vitest";
import { defaultScenarioDir } from "../../conformance/cli/paths.ts";
import { runScenario } from "../../conformance/engine/run.ts";
import { formatResult } from "../../conformance/report/console.ts";
import { judge } from "../../conformance/report/baseline.ts";
import { formatDiagnostic } from "../../conformance/scenario/load.ts";
import { lintPaths } from "../../conformance/scenario/lint.ts";
import { createReferenceSubject } from "../../conformance/subjects/reference/index.ts";

const lint = await lintPaths([defaultScenarioDir]);
const subject = createReferenceSubject();
afterAll(() => subject.close());

describe("scenario files", () => {
  it("lint cleanly", () => {
    expect(lint.diagnostics.map(formatDiagnostic).join("\n")).toBe("");
  });
});

describe("reference (in-process)", () => {
  for (const scenario of lint.expanded) {
    it(scenario.id, async () => {
      const result = judge(await runScenario(scenario, subject), new Map());
      expect(result.status, formatResult(result)).toBe("pass");
    }, 60_000);
  }
});
