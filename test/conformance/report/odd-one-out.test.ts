// The odd one out: exactly one subject differs from all the others, in status or in the failing check;
// skips take no part; fewer than three subjects is said, not guessed.
import { describe, expect, it } from "vitest";
import { formatOddOneOut, oddOneOut } from "../../../conformance/report/odd-one-out.ts";
import { renderMarkdownMatrix } from "../../../conformance/report/matrix.ts";
import type { Report, Result } from "../../../conformance/schema/report.types.ts";

const subject = (name: string) => ({ name, language: "l", package: "p", version: "1", capabilities: [], available: true });
const result = (scenario: string, name: string, status: Result["status"], check?: string): Result => ({
  scenario,
  baseId: scenario,
  subject: name,
  status,
  durationMs: 1,
  message: check ?? "",
  spec: [],
  tags: [],
  file: `fixtures/scenarios/${scenario}.yaml`,
  ...(check ? { failures: [{ step: 1, check, message: check, line: 9 }] } : {}),
});
const report = (names: string[], results: Result[]): Report => ({
  version: 1,
  startedAt: "2026-12-01T00:00:00.000Z",
  finishedAt: "2026-12-01T00:00:01.000Z",
  subjects: names.map(subject),
  results,
});

const three = report(
  ["reference", "python", "go"],
  [
    // python alone fails: python is the odd one
    result("a", "reference", "pass"),
    result("a", "python", "fail", "step 1 /x"),
    result("a", "go", "pass"),
    // all fail, python on another check: python again
    result("b", "reference", "fail", "step 1 /y"),
    result("b", "python", "fail", "step 1 /z"),
    result("b", "go", "fail", "step 1 /y"),
    // the reference alone passes: the reference is the odd one (the SPEC may be wrong)
    result("c", "reference", "pass"),
    result("c", "python", "error", "step 1 /w"),
    result("c", "go", "error", "step 1 /w"),
    // three different outcomes: nobody is the odd one
    result("d", "reference", "pass"),
    result("d", "python", "fail", "step 1 /x"),
    result("d", "go", "error", "step 1 /x"),
    // a skip takes no part, so two remain: too few
    result("e", "reference", "pass"),
    result("e", "python", "fail", "step 1 /x"),
    result("e", "go", "skip"),
    // everyone agrees
    result("f", "reference", "pass"),
    result("f", "python", "pass"),
    result("f", "go", "pass"),
  ],
);

describe("odd one out", () => {
  it("lists, per subject, the scenarios where it alone differs, in status or failing check", () => {
    const found = oddOneOut(three);
    expect(found.applicable).toBe(true);
    if (!found.applicable) return;
    expect([...found.bySubject].map(([name, odd]) => [name, odd.map((entry) => entry.scenario)])).toEqual([
      ["reference", ["c"]],
      ["python", ["a", "b"]],
      ["go", []],
    ]);
    expect(found.scenarios.get("b")).toMatchObject({
      subject: "python",
      status: "fail",
      checks: ["step 1 /z"],
      others: { status: "fail", checks: ["step 1 /y"], subjects: ["reference", "go"] },
    });
  });

  it("needs three subjects that ran, and says so with two", () => {
    const two = report(
      ["reference", "python"],
      three.results.filter((each) => each.subject !== "go"),
    );
    expect(oddOneOut(two)).toEqual({
      applicable: false,
      reason: expect.stringContaining(
        "needs at least 3 subjects that ran (with two, either could be the one that differs); this report has 2",
      ),
    });
    expect(formatOddOneOut(two)).toEqual([expect.stringMatching(/^odd one out: none computed: /)]);
    expect(
      formatOddOneOut(
        report(
          ["reference"],
          three.results.filter((each) => each.subject === "reference"),
        ),
      ),
    ).toEqual([]);
    expect(renderMarkdownMatrix(two)).toContain("## Odd one out\n\nNone computed: the odd one out needs at least 3 subjects");
  });

  it("shows them in the console summary and the Markdown matrix", () => {
    expect(formatOddOneOut(three)).toEqual([
      "odd one out (scenarios where exactly one of 3 subjects differs from all the others):",
      "  reference: 1: c (pass; the others error)",
      "  python: 2: a (fail on step 1 /x; the others pass), b (fail on step 1 /z; the others fail)",
      "  go: none",
    ]);
    const markdown = renderMarkdownMatrix(three);
    expect(markdown).toContain(
      "- **python**: 2\n  - `a`: fail on `step 1 /x`; the others (reference, go) pass\n  - `b`: fail on `step 1 /z`; the others (reference, go) fail on `step 1 /y`",
    );
    expect(markdown).toContain("- **go**: none");
  });
});
