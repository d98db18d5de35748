import { describe, expect, it } from "vitest";
import { judge, orphanedEntries } from "../../../conformance/report/baseline.ts";
import { formatResult } from "../../../conformance/report/console.ts";
import { mergeReports, validateReport } from "../../../conformance/report/json-report.ts";
import { renderJunit } from "../../../conformance/report/junit.ts";
import { renderMarkdownMatrix } from "../../../conformance/report/matrix.ts";
import type { Entry } from "../../../conformance/schema/baseline.types.ts";
import type { Report } from "../../../conformance/schema/report.types.ts";
import type { ScenarioResult } from "../../../conformance/engine/run.ts";

const result = (scenario: string, status: ScenarioResult["status"], extra: Partial<ScenarioResult> = {}): ScenarioResult => ({
  scenario,
  baseId: scenario.replace(/\[.*\]$/, ""),
  title: "t",
  file: "f.yaml",
  subject: "py",
  status,
  durationMs: 3,
  message: status === "pass" ? "" : "m",
  spec: ["core.tool-result"],
  tags: [],
  ...extra,
});
const entry = (scenario: string, checks: Entry["checks"] = ["step 2 (client.run) /x"]): Entry => ({
  scenario,
  status: "fail",
  checks,
  clause: "mcp.allowlist.empty",
  classification: "spec-pinned",
  reason: "tools: {} loads all tools in this port",
});
const failingOn = (...checks: string[]): Partial<ScenarioResult> => ({
  failures: checks.map((check) => ({ step: 1, check, message: `f.yaml:9: ${check}: not equal` })),
});

describe("baselines", () => {
  const baseline = new Map([
    ["a", entry("a")],
    ["b", entry("b")],
  ]);
  it("a listed failure is as expected; a listed scenario that passes is unexpected; an unlisted failure is unexpected", () => {
    expect(judge(result("a", "fail", failingOn("step 2 (client.run) /x")), baseline).outcome).toBe("as-expected");
    expect(judge(result("b", "pass"), baseline).outcome).toBe("unexpected-pass");
    expect(judge(result("c", "fail"), baseline).outcome).toBe("unexpected-failure");
    expect(judge(result("c", "error"), baseline).outcome).toBe("unexpected-failure");
    expect(judge(result("a", "error"), baseline).outcome).toBe("unexpected-failure");
    expect(judge(result("c", "skip"), baseline).outcome).toBe("as-expected");
  });

  it("a non-strict entry (timing-dependent) accepts a pass, but still not another failure status", () => {
    const loose = new Map([["t", { ...entry("t"), strict: false }]]);
    expect(judge(result("t", "pass"), loose).outcome).toBe("as-expected");
    expect(judge(result("t", "fail", failingOn("step 2 (client.run) /x")), loose).outcome).toBe("as-expected");
    expect(judge(result("t", "error"), loose).outcome).toBe("unexpected-failure");
  });

  it("a listed scenario failing on a check its entry does not list is an unexpected failure, naming the check", () => {
    const judged = judge(
      result("a", "fail", failingOn("step 2 (client.run) /x", "step 2 (client.run) llm /requests/0/body/system")),
      baseline,
    );
    expect(judged).toMatchObject({ outcome: "unexpected-failure", unlistedChecks: ["step 2 (client.run) llm /requests/0/body/system"] });
    expect(judged.staleChecks).toBeUndefined();
    expect(formatResult(judged)).toContain(
      'failed on checks its baseline entry does not list: "step 2 (client.run) llm /requests/0/body/system"',
    );
    expect(
      renderJunit(
        {
          version: 1,
          startedAt: "x",
          finishedAt: "x",
          subjects: [{ name: "py", language: "python", package: "p", version: "1", capabilities: [], available: true }],
          results: [judged],
        },
        "toolnexus",
      ),
    ).toContain("unlisted-checks");
  });

  it("a listed check that now holds is stale, unless the entry is not strict; a failure on other checks too is reported as unexpected first", () => {
    const two = new Map([["a", entry("a", ["step 2 (client.run) /x", "step 3 (client.run) /y"])]]);
    const stale = judge(result("a", "fail", failingOn("step 2 (client.run) /x")), two);
    expect(stale).toMatchObject({ outcome: "unexpected-pass", staleChecks: ["step 3 (client.run) /y"] });
    expect(formatResult(stale)).toMatch(
      /^STALE .*listed checks now hold: "step 3 \(client\.run\) \/y": remove them from the baseline entry/,
    );
    const loose = new Map([["a", { ...two.get("a")!, strict: false }]]);
    expect(judge(result("a", "fail", failingOn("step 2 (client.run) /x")), loose).outcome).toBe("as-expected");
    expect(judge(result("a", "fail", failingOn("step 4 (client.run) /z")), loose)).toMatchObject({
      outcome: "unexpected-failure",
      unlistedChecks: ["step 4 (client.run) /z"],
    });
    const both = judge(result("a", "fail", failingOn("step 2 (client.run) /x", "step 4 (client.run) /z")), two);
    expect(both).toMatchObject({
      outcome: "unexpected-failure",
      unlistedChecks: ["step 4 (client.run) /z"],
      staleChecks: ["step 3 (client.run) /y"],
    });
  });

  it("an entry for a scenario that no longer exists is found (a stale baseline fails loudly)", () => {
    expect(orphanedEntries(baseline, new Set(["a", "c"])).map((entry) => entry.scenario)).toEqual(["b"]);
  });
});

describe("reports", () => {
  const baseline = new Map([["a", entry("a")]]);
  const report: Report = {
    version: 1,
    startedAt: "2026-11-29T10:00:00.000Z",
    finishedAt: "2026-11-29T10:01:00.000Z",
    subjects: [
      { name: "py", language: "python", package: "toolnexus", version: "0.21.0", capabilities: [], available: true },
      {
        name: "go",
        language: "go",
        package: "github.com/muthuishere/toolnexus/golang",
        version: "v0.16.0",
        capabilities: [],
        available: false,
        unavailableReason: "go: 403 Forbidden",
      },
    ],
    results: [
      judge(
        result("a", "fail", {
          failures: [
            {
              step: 1,
              check: "step 2 (client.run) /x",
              message: "f.yaml:9: step 1, result at /x: not equal",
              diff: [{ path: "/x", change: "changed", expected: 1, actual: 2 }],
            },
          ],
        }),
        baseline,
      ),
      judge(
        result("c", "fail", {
          failures: [
            {
              step: 0,
              check: "step 1 (toolkit.list) /tools",
              message: "boom",
              diff: [{ path: "/tools", change: "unexpected", actual: [] }],
            },
          ],
        }),
        baseline,
      ),
      judge(result("d", "pass"), baseline),
    ],
  };

  it("the JSON report validates against its schema, and a broken one does not", () => {
    expect(validateReport(report), JSON.stringify(validateReport.errors)).toBe(true);
    expect(validateReport({ ...report, results: [{ scenario: "x" }] })).toBe(false);
  });

  it("the console shows the diff of an unexpected failure", () => {
    const text = formatResult(report.results[1]);
    expect(text).toContain("FAIL");
    expect(text).toContain("/tools: unexpected []");
  });

  it("JUnit: unexpected failure is a failure, an expected one is skipped with its reason, an unavailable subject is an error", () => {
    const xml = renderJunit(report, "toolnexus");
    expect(xml).toContain('<testsuites tests="4" failures="1" errors="1" skipped="1">');
    expect(xml).toContain("expected failure (spec-pinned, mcp.allowlist.empty): tools: {} loads all tools in this port");
    expect(xml).toContain("go: 403 Forbidden");
  });

  it("the Markdown matrix has a row per scenario and a column per subject", () => {
    const markdown = renderMarkdownMatrix(report);
    expect(markdown).toContain("| `a` | ❌⚠ | · |");
    expect(markdown).toContain("| `c` | ❌ | · |");
    expect(markdown).toContain("unavailable: go: 403 Forbidden");
  });

  it("merging shards keeps every result once and refuses duplicates", () => {
    const first = { ...report, results: report.results.slice(0, 1) };
    const second = { ...report, results: report.results.slice(1), finishedAt: "2026-11-29T10:02:00.000Z" };
    const merged = mergeReports([first, second]);
    expect(merged.results).toHaveLength(3);
    expect(merged.finishedAt).toBe("2026-11-29T10:02:00.000Z");
    expect(() => mergeReports([report, report], ["shard-1.json", "shard-2.json"])).toThrow(
      "scenario a on py appears in both shard-1.json and shard-2.json",
    );
    expect(() => mergeReports([report, report], ["shard-1.json", "shard-1.json"])).toThrow(
      "scenario a on py appears in shard-1.json, which is given twice",
    );
    expect(() => mergeReports([{ ...report, results: [report.results[0], report.results[0]] }], ["shard-1.json"])).toThrow(
      "shard-1.json lists scenario a on py twice",
    );
  });

  it("reading a report that is cut short, empty or not JSON names the file and what is wrong", async () => {
    const { mkdtemp, writeFile, rm } = await import("node:fs/promises");
    const { tmpdir } = await import("node:os");
    const { join } = await import("node:path");
    const { readJsonReport } = await import("../../../conformance/report/json-report.ts");
    const dir = await mkdtemp(join(tmpdir(), "tnc-reports-"));
    try {
      const text = JSON.stringify(report, null, 2);
      const cut = join(dir, "cut.json");
      await writeFile(cut, text.slice(0, 300));
      await expect(readJsonReport(cut)).rejects.toThrow(
        `${cut} is cut short (300 bytes, the JSON ends early): was its run interrupted while writing it?`,
      );
      const empty = join(dir, "empty.json");
      await writeFile(empty, "");
      await expect(readJsonReport(empty)).rejects.toThrow(`${empty} is empty, not a conformance report`);
      const garbage = join(dir, "garbage.json");
      await writeFile(garbage, "<html>");
      await expect(readJsonReport(garbage)).rejects.toThrow(`${garbage} is not JSON: Unexpected token`);
      const whole = join(dir, "whole.json");
      await writeFile(whole, text);
      expect(await readJsonReport(whole)).toEqual(report);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});

describe("unavailable reasons in the matrix", () => {
  it("keep the installer's first real error line, not its retry chatter", async () => {
    const { reasonDigest } = await import("../../../conformance/report/matrix.ts");
    const reason =
      "install exited with 1:\ngo runner install: attempt 1 of 3 failed; retrying\ngo: downloading x v1\n" +
      "client.go:13:2: x@v1: reading <proxy>/x/@v/v1.zip: 403 Forbidden\n\tserver response: not available.";
    expect(reasonDigest(reason)).toBe("install exited with 1: client.go:13:2: x@v1: reading <proxy>/x/@v/v1.zip: 403 Forbidden");
    expect(reasonDigest("dotnet not found on PATH")).toBe("dotnet not found on PATH");
  });
});

describe("baseline files", () => {
  it("an invalid entry is reported with the file and line", async () => {
    const { mkdtemp, writeFile, rm } = await import("node:fs/promises");
    const { tmpdir } = await import("node:os");
    const { join } = await import("node:path");
    const { loadBaseline } = await import("../../../conformance/report/baseline.ts");
    const dir = await mkdtemp(join(tmpdir(), "tnc-baseline-"));
    const file = join(dir, "expected-failures.yaml");
    await writeFile(
      file,
      "subject: py\nentries:\n  - scenario: a\n    status: fail\n    checks: [step 1 (toolkit.list) /value]\n    clause: x\n    classification: port-bug\n    reason: long enough reason\n" +
        "  - scenario: b\n    status: flaky\n    clause: x\n    classification: port-bug\n    reason: long enough reason\n",
    );
    try {
      await expect(loadBaseline(file)).rejects.toThrow(
        `${file}:10: invalid baseline at /entries/1/status: must be equal to one of the allowed values (expected one of: "fail", "error")`,
      );
      // A failure entry must say what fails in the scenario: a new failure elsewhere in it then shows.
      await writeFile(
        file,
        "subject: py\nentries:\n  - scenario: a\n    status: fail\n    clause: x\n    classification: port-bug\n    reason: long enough reason\n",
      );
      await expect(loadBaseline(file)).rejects.toThrow(
        `${file}:3: invalid baseline at /entries/0: missing key "checks": list the check ids the scenario fails on`,
      );
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});

describe("what a report stores per value is capped", () => {
  it("a failing assertion on a 5 MB value stores its beginning, size and hash: the report stays small and valid", async () => {
    const { createHash } = await import("node:crypto");
    const { ajv } = await import("../../../runners/protocol/json-schema.ts");
    const { runSuite } = await import("../../../conformance/run/suite.ts");
    const { expandYaml, fakeSubject, ok } = await import("../helpers.ts");
    const huge = `${"x".repeat(5 * 1024 * 1024)}é`;
    const list = Array.from({ length: 1_000 }, (_, index) => index);
    const subject = fakeSubject(() => ok({ big: huge, list, small: "b" }));
    const [scenario] = expandYaml(`id: t.huge
title: t
spec: [core.tool-result]
steps:
  - op: runner.echo
    with: {value: x}
    expect:
      - {at: /value/big, equals: short}
      - {at: /value/big, matches: "^y"}
      - {at: /value/list, setEquals: []}
      - {at: /value/small, equals: a}
`);
    const { toolnexusSuite } = await import("../../../conformance/suite/toolnexus.ts");
    const [result] = await runSuite([scenario], subject, { fixtureKinds: toolnexusSuite.fixtureKinds });
    const report: Report = {
      version: 1,
      startedAt: "2026-11-29T10:00:00.000Z",
      finishedAt: "2026-11-29T10:01:00.000Z",
      subjects: [],
      results: [result],
    };
    expect(validateReport(report), JSON.stringify(validateReport.errors)).toBe(true);
    expect(JSON.stringify(report).length).toBeLessThan(100_000);

    const json = JSON.stringify(huge);
    const capped = {
      truncated: true,
      size: Buffer.byteLength(json),
      sha256: createHash("sha256").update(json).digest("hex"),
      prefix: json.slice(0, 2_048),
    };
    const [equals, matches, setEquals, small] = result.failures!;
    expect(equals.actual).toEqual(capped);
    expect(equals.diff).toEqual([{ path: "/value/big", change: "changed", expected: "short", actual: capped }]);
    expect(
      ajv.validate({ $ref: "https://toolnexus-conformance.invalid/report.schema.json#/$defs/truncatedValue" }, equals.actual),
      JSON.stringify(ajv.errors),
    ).toBe(true);
    // The matcher's message quotes the value: cut the same way.
    expect(matches.message.length).toBeLessThan(4_000);
    expect(matches.message).toMatch(new RegExp(`… \\[truncated: \\d+ bytes in all, sha256 [0-9a-f]{64}\\]$`));
    // A thousand small differences: the first hundred, and how many there were.
    expect(setEquals.diff).toHaveLength(100);
    expect(setEquals.diffCount).toBe(1_000);
    // Small values are stored whole.
    expect(small).toMatchObject({
      actual: "b",
      expected: "a",
      diff: [{ path: "/value/small", change: "changed", expected: "a", actual: "b" }],
    });
    expect(small.diffCount).toBeUndefined();
  });
});
