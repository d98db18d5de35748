// foldRuns: a scenario's runs under --repeat as one result. Which run is shown, when the runs count as
// disagreeing, and what a strict: false entry accepts.
import { describe, expect, it } from "vitest";
import type { Result } from "../../../conformance/schema/report.types.ts";
import { describeRepeat, foldRuns } from "../../../conformance/report/repeat.ts";

const run = (status: Result["status"], checks: string[], extra: Partial<Result> = {}): Result => ({
  scenario: "s",
  baseId: "s",
  subject: "x",
  status,
  durationMs: 1,
  message: status,
  spec: [],
  tags: [],
  file: "s.yaml",
  outcome: "as-expected",
  ...(checks.length ? { failures: checks.map((check) => ({ step: 1, check, message: check })) } : {}),
  ...extra,
});
const listed = (strict: boolean) => ({
  expected: { status: "fail" as const, reason: "r", checks: ["a", "b"], ...(strict ? {} : { strict: false }) },
});

describe("foldRuns", () => {
  it("one run is returned as it is: nothing added", () => {
    const only = run("pass", []);
    expect(foldRuns([only])).toBe(only);
  });

  it("runs that agree are not flaky, and keep their outcome", () => {
    const folded = foldRuns([run("fail", ["a"], { outcome: "unexpected-failure" }), run("fail", ["a"], { outcome: "unexpected-failure" })]);
    expect(folded.outcome).toBe("unexpected-failure");
    expect(folded.repeat).toEqual({ runs: 2, passed: 0, statuses: { fail: 2 }, flaky: false });
  });

  it("errors failing different checks under a strict entry disagree: flaky, though each run alone was as expected", () => {
    const entry = { expected: { status: "error" as const, reason: "r" } };
    const folded = foldRuns([run("error", ["a"], entry), run("error", ["b"], entry), run("error", ["a"], entry)]);
    expect(folded.outcome).toBe("flaky");
    expect(folded.repeat?.variedChecks).toEqual([
      { check: "a", failed: 2 },
      { check: "b", failed: 1 },
    ]);
  });

  it("shows the first run of the worst outcome; a strict: false entry accepts the varying, not a new check", () => {
    const accepted = foldRuns([run("pass", [], listed(false)), run("fail", ["a", "b"], listed(false)), run("fail", ["a"], listed(false))]);
    expect(accepted).toMatchObject({ outcome: "as-expected", status: "fail", repeat: { passed: 1, flaky: true } });
    expect(accepted.failures?.map((failure) => failure.check)).toEqual(["a", "b"]);
    const unlisted = foldRuns([
      run("fail", ["a"], listed(false)),
      run("fail", ["a", "c"], { ...listed(false), outcome: "unexpected-failure", unlistedChecks: ["c"] }),
    ]);
    expect(unlisted.outcome).toBe("unexpected-failure");
    expect(unlisted.unlistedChecks).toEqual(["c"]);
    const strict = foldRuns([run("fail", ["a", "b"], listed(true)), run("pass", [], { ...listed(true), outcome: "unexpected-pass" })]);
    expect(strict).toMatchObject({ outcome: "flaky", status: "pass" });
  });

  it("says the rate as a baseline entry quotes it", () => {
    expect(
      describeRepeat({ runs: 6, passed: 5, statuses: { pass: 5, fail: 1 }, flaky: true, variedChecks: [{ check: "c", failed: 1 }] }),
    ).toBe('passed 5/6 (fail 1/6); varied: "c" failed 1/6');
    expect(describeRepeat({ runs: 3, passed: 3, statuses: { pass: 3 }, flaky: false })).toBe("passed 3/3");
  });
});
