// The bench's pure parts: statistics, flags, table formatting, a port not obtainable here. No timings here: figures come from
// `npm run bench`, side by side in one run, never from an assertion on a clock.
import { describe, expect, it } from "vitest";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parseOptions, UsageError, type BenchOptions } from "../../bench/lib/options.ts";
import type { BenchContext } from "../../bench/measure/context.ts";
import { measureVitest } from "../../bench/measure/vitest.ts";
import { repoRoot } from "../../conformance/common/paths.ts";
import { median, pairedRatios, quantile, summarize } from "../../bench/lib/stats.ts";
import { formatNumber, formatTable, shortReason, tally, verdict, type Row } from "../../bench/lib/table.ts";
import { differingScenarios, type SuiteSample } from "../../bench/measure/suite.ts";
import type { Obtainability } from "../../conformance/schema/obtainability.types.ts";

describe("bench stats", () => {
  it("summarizes min / median / p95 / max / mean, ignoring non-finite samples", () => {
    const summary = summarize([5, 1, 4, 2, 3, Number.NaN]);
    expect(summary).toEqual({ n: 5, min: 1, median: 3, p95: 4.8, max: 5, mean: 3 });
    expect(summarize([]).n).toBe(0);
    expect(Number.isNaN(summarize([]).median)).toBe(true);
  });

  it("interpolates quantiles between closest ranks", () => {
    const sorted = Array.from({ length: 21 }, (_, index) => index * 10); // 0..200
    expect(quantile(sorted, 0.95)).toBe(190);
    expect(quantile(sorted, 0)).toBe(0);
    expect(quantile(sorted, 1)).toBe(200);
    expect(quantile([7], 0.95)).toBe(7);
    expect(median([1, 2, 3, 4])).toBe(2.5);
  });

  it("takes ratios pairwise, sample by sample", () => {
    expect(pairedRatios([3, 8, 10], [1, 4])).toEqual([3, 2]);
  });
});

describe("bench flags", () => {
  it("defaults to 5 runs of every group; --quick to 1 run, smaller counts and a slice of the suite", () => {
    const full = parseOptions([]);
    expect(full.runs).toBe(5);
    expect(full.quick).toBe(false);
    expect([...full.only]).toEqual(["suite", "echo", "abort", "mcp-load", "fixture-start", "client", "memory", "steadiness", "vitest"]);
    expect(full.suiteEvery).toBe(1);
    expect(full.abortSamples).toBeGreaterThanOrEqual(20);
    const quick = parseOptions(["--quick"]);
    expect(quick.runs).toBe(1);
    expect(quick.suiteEvery).toBeGreaterThan(1);
    expect(quick.echoCount).toBeLessThan(full.echoCount);
  });

  it("takes --runs and --only (repeatable or comma-separated), and refuses what it does not know", () => {
    const options = parseOptions(["--runs", "7", "--only", "echo,abort", "--only", "memory"]);
    expect(options.runs).toBe(7);
    expect([...options.only]).toEqual(["echo", "abort", "memory"]);
    expect(parseOptions([]).runners).toEqual([]);
    expect(parseOptions(["--runner", "python,ts", "--runner", "rust"]).runners).toEqual(["python", "ts", "rust"]);
    expect(() => parseOptions(["--only", "speed"])).toThrow(UsageError);
    expect(() => parseOptions(["--runs", "0"])).toThrow(UsageError);
    expect(() => parseOptions(["--runs", "x"])).toThrow(UsageError);
    expect(() => parseOptions(["--fast"])).toThrow(UsageError);
    expect(parseOptions(["--vitest-report", "out/r.json", "--vitest-before", "547d8a6"])).toMatchObject({
      vitestReport: "out/r.json",
      vitestBefore: "547d8a6",
    });
  });
});

describe("bench vitest rows", () => {
  const file = (name: string, startTime: number, endTime: number) => ({ name: join(repoRoot, "test", name), startTime, endTime });
  const report = {
    startTime: 1_000,
    numTotalTests: 9,
    numFailedTests: 0,
    success: true,
    testResults: [
      file("suite/reference.test.ts", 1_000, 61_000),
      file("conformance/cli/cli.test.ts", 1_000, 11_000),
      file("conformance/cli/repeat.test.ts", 11_000, 16_000),
      file("strict-rejects.test.ts", 16_000, 16_500),
    ],
  };
  const context = (options: Partial<BenchOptions>): BenchContext => ({
    options: { ...parseOptions(["--quick"]), ...options },
    runners: [],
    log: () => undefined,
  });

  it("reads a report vitest wrote: its wall time and each folder's summed file time", async () => {
    const dir = await mkdtemp(join(tmpdir(), "tnc-bench-vitest-test-"));
    try {
      const reportFile = join(dir, "report.json");
      await writeFile(reportFile, JSON.stringify(report));
      const rows = await measureVitest(context({ vitestReport: reportFile }));
      expect(rows.map((row) => [row.figure, row.summary?.median])).toEqual([
        ["vitest wall time", 60],
        ["vitest file time, test/", 0.5],
        ["vitest file time, test/conformance/cli/", 15],
        ["vitest file time, test/suite/", 60],
      ]);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it("under --quick without a report, runs no tests and says why", async () => {
    const [row] = await measureVitest(context({}));
    expect(row.unavailable).toMatch(/--quick runs no tests of its own/);
  });
});

const summary = (values: number[]) => summarize(values);

describe("bench table", () => {
  const rows: Row[] = [
    {
      group: "echo",
      figure: "runner.echo round trips",
      subject: "ts",
      unit: "/s",
      summary: summary([6000, 7000, 8000]),
      target: { stat: "median", op: ">=", value: 5000 },
    },
    {
      group: "suite",
      figure: "suite wall time / in-process",
      subject: "ts",
      unit: "x",
      summary: summary([1.6, 1.7, 1.8]),
      target: { stat: "median", op: "<=", value: 1.5 },
    },
    { group: "suite", figure: "suite wall time", subject: "in-process", unit: "s", summary: summary([12.5, 13]) },
    {
      group: "echo",
      figure: "runner.echo round trips",
      subject: "go",
      unit: "/s",
      unavailable: "install exited with 1:\ngo: downloading x\nclient.go:13:2: reading <module proxy>/x.zip: 403 Forbidden",
    },
  ];

  it("judges each row by its target statistic", () => {
    expect(rows.map(verdict)).toEqual(["PASS", "MISS", "info", "n/a"]);
    expect(verdict({ ...rows[0], summary: summary([]) })).toBe("n/a");
    expect(verdict({ ...rows[0], summary: summary([4999.9]) })).toBe("MISS");
    expect(verdict({ ...rows[0], summary: summary([5000]) })).toBe("PASS");
    expect(tally(rows)).toEqual({ PASS: 1, MISS: 1, info: 1, "n/a": 1 });
  });

  it("formats numbers by magnitude", () => {
    expect(formatNumber(12345.6)).toBe("12,346");
    expect(formatNumber(123.4)).toBe("123");
    expect(formatNumber(12.34)).toBe("12.3");
    expect(formatNumber(1.234)).toBe("1.23");
    expect(formatNumber(0.01234)).toBe("0.012");
    expect(formatNumber(0)).toBe("0");
    expect(formatNumber(Number.NaN)).toBe("-");
  });

  it("prints aligned columns, measured against target, and the reason for an unavailable subject", () => {
    const text = formatTable(rows);
    const lines = text.split("\n");
    expect(lines[0]).toMatch(
      /^\| figure +\| subject +\| unit \| +n \| +min \| +median \| +p95 \| +max \| target +\| measured \| result \|$/,
    );
    expect(lines[1]).toMatch(/^\|-+\|/);
    expect(lines[2]).toContain("| median >= 5,000 |");
    expect(lines[2]).toMatch(/\| +7,000 \| PASS +\|$/);
    expect(lines[3]).toMatch(/\| median <= 1.50 +\| +1.70 \| MISS +\|$/);
    expect(lines[4]).toMatch(/\| - +\| +- \| info +\|$/);
    expect(lines[5]).toContain("| go ");
    expect(lines[5]).toContain("unavailable: install exited with 1: client.go:13:2: reading <module proxy>/x.zip: 403 Forbidden");
    // Every full row has the same width.
    expect(new Set(lines.slice(0, 5).map((line) => line.length)).size).toBe(1);
  });

  it("keeps the telling line of an installer's output, and its end when it is long", () => {
    expect(shortReason("no runners/csharp/ (no runner yet)")).toBe("no runners/csharp/ (no runner yet)");
    const maven =
      "install exited with 1:\nattempt 1 of 3 failed; retrying\n\u001b[0mWARNING: Unsafe\n[ERROR] Failed to execute goal: could not resolve io.github.x:toolnexus:jar:0.16.0\n" +
      "[ERROR] \n[ERROR] Re-run Maven using the -X switch";
    expect(shortReason(maven)).toBe(
      "install exited with 1: [ERROR] Failed to execute goal: could not resolve io.github.x:toolnexus:jar:0.16.0",
    );
    const long = shortReason(`install exited with 1:\n${"x".repeat(200)} 403 Forbidden`, 60);
    expect(long.length).toBe(60);
    expect(long.endsWith("403 Forbidden")).toBe(true);
    expect(shortReason("  \n")).toBe("(no reason given)");
  });
});

describe("bench suite samples", () => {
  const sample = (signatures: SuiteSample["signatures"]): SuiteSample => ({
    scenarios: signatures.length,
    counts: {},
    unexpected: [],
    startMs: 0,
    wallMs: 0,
    maxRssKb: 0,
    signatures,
  });
  const signature = (scenario: string, status: "pass" | "fail", checks: string[] = []) => ({
    scenario,
    subject: "s",
    status,
    outcome: "as-expected" as const,
    checks,
  });

  it("names the scenarios whose result differs between --jobs 1 and the default, and a missing result", () => {
    const serial = sample([signature("a", "pass"), signature("b", "fail", ["c1"]), signature("c", "pass")]);
    expect(differingScenarios(serial, sample([signature("a", "pass"), signature("b", "fail", ["c1"]), signature("c", "pass")]))).toEqual(
      [],
    );
    expect(differingScenarios(serial, sample([signature("a", "fail"), signature("b", "fail", ["c2"]), signature("c", "pass")]))).toEqual([
      "a",
      "b",
    ]);
    expect(differingScenarios(serial, sample([signature("a", "pass"), signature("b", "fail", ["c1"])]))).toEqual(["c", "(3 results vs 2)"]);
    expect(differingScenarios(serial, undefined)).toEqual([]);
  });
});

describe("bench runners", () => {
  it("does not install a port this machine cannot obtain: its rows say why, from the decision", async () => {
    const { prepareRunner } = await import("../../bench/lib/runners.ts");
    const decision: Obtainability = {
      decidedAt: "2026-12-04T00:00:00.000Z",
      runners: [
        {
          name: "python",
          package: "toolnexus==0.21.0",
          toolchains: [{ tool: "python3", found: true, version: "Python 3.11.7" }],
          port: { answer: "unreachable", words: "pip's words\n[Errno -2] Name or service not known" },
        },
      ],
    };
    const logged: string[] = [];
    const choice = await prepareRunner("python", (line) => logged.push(line), decision);
    expect(choice).toEqual({
      name: "python",
      available: false,
      reason: "not obtainable here: its package client could not reach its registry: [Errno -2] Name or service not known",
    });
    // Nothing was installed: an install logs its command first.
    expect(logged).toEqual([]);
  });
});
