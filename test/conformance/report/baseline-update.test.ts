// `baseline --update`'s rewrite of a baseline's text from a run, in process (the CLI test beside it runs
// the command end to end): the checks it writes, what it leaves for a person to decide, and, after a
// run of the whole suite, `measured` (when, by which command, against what) in place of notMeasured.
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

const fail = (scenario: string, ...checks: string[]) =>
  result(scenario, "fail", checks.map((check) => ({ check, message: "differs" })) as Result["failures"]);
const header = "# kept\nsubject: py\nentries:\n";
const listing = (scenario: string, status: string, more = "") =>
  `  - scenario: ${scenario}\n    status: ${status}\n${more}    clause: c\n    classification: port-bug\n    reason: kept as written\n`;

describe("baseline --update writes the checks of the entries a run measured", () => {
  it("writes new checks right after status, replaces changed ones, and leaves equal ones and unmeasured entries as written", () => {
    const text =
      header +
      listing("new", "fail") +
      listing("moved", "fail", "    checks:\n      - step 1 (toolkit.list) /old\n") +
      listing("same", "fail", "    checks:\n      - step 2 (toolkit.list) /a\n      - step 2 (toolkit.list) /b\n") +
      listing("longer", "fail", "    checks:\n      - step 2 (toolkit.list) /a\n") +
      listing("reordered", "fail", "    checks:\n      - step 2 (toolkit.list) /b\n      - step 2 (toolkit.list) /a\n") +
      listing("partly", "fail", "    checks:\n      - step 2 (toolkit.list) /a\n      - step 2 (toolkit.list) /b\n") +
      "  - checks:\n      - step 4 (toolkit.list) /old\n    scenario: checks-first\n    status: fail\n" +
      listing("erring", "error") +
      "  -\n" +
      listing("skipped", "fail", "    checks:\n      - step 9 (toolkit.list) /x\n") +
      listing("absent", "fail", "    checks:\n      - step 9 (toolkit.list) /x\n") +
      "  - not an entry\n  - status: fail\n";
    const update = updateBaselineChecks("f.yaml", text, [
      fail("new", "step 1 (toolkit.list) /value"),
      fail("moved", "step 1 (toolkit.list) /new"),
      fail("same", "step 2 (toolkit.list) /a", "step 2 (toolkit.list) /b"),
      fail("longer", "step 2 (toolkit.list) /a", "step 2 (toolkit.list) /c"),
      fail("reordered", "step 2 (toolkit.list) /a", "step 2 (toolkit.list) /b"),
      fail("partly", "step 2 (toolkit.list) /a", "step 2 (toolkit.list) /c"),
      fail("checks-first", "step 4 (toolkit.list) /new"),
      { ...fail("erring", "step 1 (toolkit.list) error"), status: "error" },
      result("skipped", "skip"),
    ]);
    expect(update.attention).toEqual([]);
    expect(update.changed).toEqual([
      'new: (none) -> ["step 1 (toolkit.list) /value"]',
      'moved: ["step 1 (toolkit.list) /old"] -> ["step 1 (toolkit.list) /new"]',
      'longer: ["step 2 (toolkit.list) /a"] -> ["step 2 (toolkit.list) /a","step 2 (toolkit.list) /c"]',
      'reordered: ["step 2 (toolkit.list) /b","step 2 (toolkit.list) /a"] -> ["step 2 (toolkit.list) /a","step 2 (toolkit.list) /b"]',
      'partly: ["step 2 (toolkit.list) /a","step 2 (toolkit.list) /b"] -> ["step 2 (toolkit.list) /a","step 2 (toolkit.list) /c"]',
      'checks-first: ["step 4 (toolkit.list) /old"] -> ["step 4 (toolkit.list) /new"]',
    ]);
    expect(update.text).toContain("  - checks:\n      - step 4 (toolkit.list) /new\n    scenario: checks-first\n    status: fail\n");
    expect(update.text).toContain(listing("erring", "error"));
    expect(update.text).toContain(
      "  - scenario: new\n    status: fail\n    checks:\n      - step 1 (toolkit.list) /value\n    clause: c\n",
    );
    expect(update.text).toContain(
      "  - scenario: moved\n    status: fail\n    checks:\n      - step 1 (toolkit.list) /new\n    clause: c\n",
    );
    expect(update.text).toContain("# kept\n");
    expect(update.text).toContain(listing("skipped", "fail", "    checks:\n      - step 9 (toolkit.list) /x\n"));
    expect(update.text).toContain(listing("absent", "fail", "    checks:\n      - step 9 (toolkit.list) /x\n"));
  });

  it("keeps a non-strict entry's listed checks, adds the new ones, and lets it pass once it has checks", () => {
    const text =
      header +
      listing("racy", "fail", "    checks:\n      - step 1 (toolkit.list) /a\n    strict: false\n") +
      listing("racy-passing", "fail", "    checks:\n      - step 1 (toolkit.list) /a\n    strict: false\n") +
      listing("racy-unlisted", "fail", "    strict: false\n");
    const update = updateBaselineChecks("f.yaml", text, [
      fail("racy", "step 1 (toolkit.list) /b"),
      result("racy-passing", "pass"),
      fail("racy-unlisted", "step 1 (toolkit.list) /c"),
    ]);
    expect(update.attention).toEqual([]);
    expect(update.changed).toEqual([
      'racy: ["step 1 (toolkit.list) /a"] -> ["step 1 (toolkit.list) /a","step 1 (toolkit.list) /b"]',
      'racy-unlisted: (none) -> ["step 1 (toolkit.list) /c"]',
    ]);
  });

  it("leaves to a person an entry whose scenario passed or ended otherwise, and a failure no entry lists, changing no text", () => {
    const text =
      header +
      listing("fixed", "fail", "    checks:\n      - step 1 (toolkit.list) /a\n") +
      listing("racy-new", "fail", "    strict: false\n") +
      listing("now-errs", "fail", "    checks:\n      - step 1 (toolkit.list) /a\n") +
      listing("now-fails", "error") +
      "  - {scenario: flow-style,   status: fail, checks: [step 1 (toolkit.list) /a], clause: c, classification: port-bug, reason: kept as written}\n";
    const errored = { ...result("now-errs", "error"), message: "reset failed\nand more" };
    const update = updateBaselineChecks("f.yaml", text, [
      result("fixed", "pass"),
      result("racy-new", "pass"),
      errored,
      fail("now-fails", "step 1 (toolkit.list) /a"),
      fail("unlisted", "step 3 (client.run) /text"),
      result("unlisted-error", "error"),
      result("passing", "pass"),
    ]);
    expect(update.attention).toEqual([
      "fixed: the entry says fail, this run passed: remove the entry if that holds",
      "racy-new: the entry says fail, this run passed (strict: false, and it lists no checks yet: run again until it fails, or write them)",
      "now-errs: the entry says fail, this run ended error: reset failed",
      "now-fails: the entry says error, this run ended fail: differs",
      'unlisted: fails and no entry lists it (checks: ["step 3 (client.run) /text"]): write one with its clause, classification and reason, or fix the port',
      "unlisted-error: errors and no entry lists it: write one with its clause, classification and reason, or fix the port",
    ]);
    expect(update.changed).toEqual([]);
    expect(update.text).toBe(text);
  });

  it("refuses a file that is not YAML, or has no list of entries, naming the file", () => {
    // entries first, so that only the syntax error stops it; its message's first line, not its first letter.
    expect(() => updateBaselineChecks("f.yaml", "entries: []\nsubject: [py\n", [])).toThrow(/^f\.yaml: [A-Z][a-z]+ [a-z]/);
    expect(() => updateBaselineChecks("f.yaml", "subject: py\nentries: none\n", [])).toThrow('f.yaml: expected a list under "entries"');
  });

  it("writes measured right before entries wherever entries stands, and a long check on one line", () => {
    const long = `step 1 (toolkit.list) /value/${"deep/".repeat(20)}end`;
    const text = "subject: py\nentries:\n" + listing("x", "fail") + "package: toolnexus==0.21.0\n";
    const update = updateBaselineChecks("f.yaml", text, [fail("x", long)], run);
    expect(update.text).toMatch(/^subject: py\nmeasured:\n {2}date: 2026-12-05\n(.*\n){2}entries:\n/);
    expect(update.text).toContain(`      - ${long}\n`);
    expect(update.text.endsWith("package: toolnexus==0.21.0\n")).toBe(true);
  });

  it("keeps a file's list style: one that writes `- ` at its key's indent gets its rewrite so too", () => {
    const flat =
      "subject: py\nentries:\n- scenario: x\n  status: fail\n  checks:\n  - step 1 (toolkit.list) /old\n  clause: c\n  classification: port-bug\n  reason: kept as written\n";
    const update = updateBaselineChecks("f.yaml", flat, [fail("x", "step 1 (toolkit.list) /new")]);
    expect(update.text).toBe(flat.replace("/old", "/new"));
  });

  it("writes measured in place of an older one, where the file said one already", () => {
    const older = { date: "2026-12-01", command: "npm run conformance -- run --runner py" };
    const text = `subject: py\nmeasured:\n  date: ${older.date}\n  command: ${older.command}\nentries: []\n`;
    const update = updateBaselineChecks("f.yaml", text, [result("b", "pass")], run);
    expect(update.measuredWritten).toEqual(run);
    expect(update.text).toBe(
      "subject: py\nmeasured:\n  date: 2026-12-05\n  command: npm run conformance -- run --runner py\n" +
        "  against: toolnexus 0.21.0 (published), 2 expanded scenarios\nentries: []\n",
    );
  });
});
