// The console's lines, as a log reader or a CI summary reads them: a baselined failure must not read
// as a failure, and errors are counted apart from failures.
import { describe, expect, it } from "vitest";
import { judge } from "../../../conformance/report/baseline.ts";
import { formatDifference, formatResult, formatSummary } from "../../../conformance/report/console.ts";
import type { ScenarioResult } from "../../../conformance/engine/run.ts";
import type { Entry } from "../../../conformance/schema/baseline.types.ts";

const result = (scenario: string, status: ScenarioResult["status"]): ScenarioResult => ({
  scenario,
  baseId: scenario,
  title: "t",
  file: "f.yaml",
  subject: "py",
  status,
  durationMs: 3,
  message: status === "pass" ? "" : "m",
  spec: ["core.tool-result"],
  tags: [],
});
const entry = (scenario: string, status: Entry["status"]): Entry => ({
  scenario,
  status,
  clause: "core.tool-result",
  classification: "port-differs",
  reason: "the port says it otherwise",
});
const baseline = new Map([
  ["known-fail", entry("known-fail", "fail")],
  ["known-error", entry("known-error", "error")],
  ["stale", entry("stale", "fail")],
]);
const results = [
  judge(result("ok", "pass"), baseline),
  judge(result("known-fail", "fail"), baseline),
  judge(result("known-error", "error"), baseline),
  judge(result("new-fail", "fail"), baseline),
  judge(result("new-error", "error"), baseline),
  judge(result("skipped", "skip"), baseline),
  judge(result("stale", "pass"), baseline),
];
const line = (id: string) => formatResult(results.find((candidate) => candidate.scenario === id)!).split("\n")[0];

describe("console report", () => {
  it("labels a baselined failure XFAIL and a baselined error XERR; new ones stay FAIL and ERROR", () => {
    expect(line("ok")).toMatch(/^PASS {2}py/);
    expect(line("known-fail")).toMatch(/^XFAIL py\s+known-fail .*\(expected: the port says it otherwise\)/);
    expect(line("known-error")).toMatch(/^XERR {2}py\s+known-error/);
    expect(line("new-fail")).toMatch(/^FAIL {2}py/);
    expect(line("new-error")).toMatch(/^ERROR py/);
    expect(line("skipped")).toMatch(/^SKIP {2}py/);
    expect(line("stale")).toMatch(/^XPASS py\s+stale .*remove it from the baseline/);
  });

  it("counts baselined failures apart, and errors apart from failures", () => {
    expect(formatSummary(results).split("\n").at(-1)).toBe(
      "conformance: 2 passed, 1 failed, 1 error, 1 skipped; 2 known divergences (baselined); 1 passed though baselined",
    );
    const green = results.filter((candidate) => candidate.outcome === "as-expected");
    expect(formatSummary(green)).toBe(
      "nothing unexpected\nconformance: 1 passed, 0 failed, 0 errors, 1 skipped; 2 known divergences (baselined)",
    );
    expect(formatSummary([results[0]])).toBe("nothing unexpected\nconformance: 1 passed, 0 failed, 0 errors, 0 skipped");
  });

  it("shows where two strings that may print alike differ, escaped: NFC beside NFD, a difference past the cut", () => {
    const nfd = formatDifference({ path: "/value/text", change: "changed", expected: "café", actual: "cafe\u0301" });
    expect(nfd).toBe(
      '/value/text: expected "café", got "cafe\u0301" (first difference at character 3, escaped: expected "caf\\u00e9", got "cafe\\u0301")',
    );
    const long = "x".repeat(200);
    expect(formatDifference({ path: "/t", change: "changed", expected: `${long}a`, actual: `${long}b` })).toContain(
      `first difference at character 200, escaped: expected "${"x".repeat(20)}a", got "${"x".repeat(20)}b"`,
    );
    expect(formatDifference({ path: "/n", change: "changed", expected: "1", actual: 1 })).toBe('/n: expected "1", got 1');
    expect(formatDifference({ path: "/a", change: "changed", expected: "ab", actual: "ac" })).toBe('/a: expected "ab", got "ac"');
  });
});
