// `baseline --update` after a run of the whole suite: a file that ends agreeing with the run says so in
// `measured` (when, by which command, against what), and stops saying notMeasured; a run that leaves
// something to decide measures nothing.
import { describe, expect, it } from "vitest";
import { updateBaselineChecks } from "../../../conformance/report/baseline-update.ts";
import type { Measured } from "../../../conformance/schema/baseline.types.ts";
import type { Result } from "../../../conformance/schema/report.types.ts";

const result = (scenario: string, status: Result["status"], failures: Result["failures"] = []): Result => ({
  scenario,
  baseId: scenario,
  subject: "py",
  status,
  durationMs: 1,
  message: status === "pass" ? "" : "differs",
  spec: ["core.tool-result"],
  tags: [],
  file: `${scenario}.yaml`,
  failures,
});
const failing = result("a", "fail", [{ check: "step 1 (toolkit.list) /value", message: "differs" }] as Result["failures"]);
const run: Measured = {
  date: "2026-12-05",
  command: "npm run conformance -- run --runner py",
  against: "toolnexus 0.21.0 (published), 2 expanded scenarios",
};

const entry =
  "  - scenario: a\n    status: fail\n    checks:\n      - step 1 (toolkit.list) /value\n    clause: c\n    classification: port-bug\n    reason: a reason long enough\n";

describe("baseline --update writes measured from a whole-suite run that leaves nothing to decide", () => {
  it("replaces notMeasured with measured, before entries, keeping comments", () => {
    const text =
      "# header\nsubject: py\npackage: toolnexus==0.21.0\nnotMeasured: no registry served it when this was written\n# the entries\nentries:\n" +
      entry;
    const update = updateBaselineChecks("f.yaml", text, [failing, result("b", "pass")], run);
    expect(update.attention).toEqual([]);
    expect(update.measuredWritten).toEqual(run);
    expect(update.text).toBe(
      "# header\nsubject: py\npackage: toolnexus==0.21.0\nmeasured:\n  date: 2026-12-05\n  command: npm run conformance -- run --runner py\n" +
        "  against: toolnexus 0.21.0 (published), 2 expanded scenarios\n# the entries\nentries:\n" +
        entry,
    );
    // The same run again: nothing to write.
    const again = updateBaselineChecks("f.yaml", update.text, [failing, result("b", "pass")], run);
    expect(again.measuredWritten).toBeUndefined();
    expect(again.text).toBe(update.text);
  });

  it("measures nothing when something is left to decide, or when the run was not the whole suite", () => {
    const text = "subject: py\nnotMeasured: no registry served it when this was written\nentries:\n" + entry;
    const unlisted = updateBaselineChecks("f.yaml", text, [failing, result("b", "error")], run);
    expect(unlisted.attention).toHaveLength(1);
    expect(unlisted.measuredWritten).toBeUndefined();
    expect(unlisted.text).toBe(text);
    const partial = updateBaselineChecks("f.yaml", text, [failing]);
    expect(partial.measuredWritten).toBeUndefined();
    expect(partial.text).toBe(text);
  });
});
