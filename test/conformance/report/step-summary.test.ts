// GITHUB_STEP_SUMMARY: run, merge and diff append a compact Markdown summary to the file it names
// (what a GitHub Actions job page shows), after what earlier steps wrote.
import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { renderReportSummary } from "../../../conformance/report/step-summary.ts";
import type { Report } from "../../../conformance/schema/report.types.ts";
import { runCli, unknownToolScenario as scenario } from "../helpers.ts";

const fixtures = fileURLToPath(new URL("./diff-fixtures/", import.meta.url));
let dir: string;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), "tnc-summary-"));
  await writeFile(join(dir, "good.yaml"), scenario("good", "Unknown tool: nope"));
  await writeFile(join(dir, "bad.yaml"), scenario("bad", "Unknown tool: something else"));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe("CI step summary", () => {
  it("a run appends its summary, new failures first with file:line and check; merge and diff append theirs after it", async () => {
    const summary = join(dir, "summary.md");
    await writeFile(summary, "# an earlier step\n\n");
    const env = { GITHUB_STEP_SUMMARY: summary };
    const report = join(dir, "report.json");
    const run = await runCli(["run", dir, "--json", report], 60_000, env);
    expect(run.code).toBe(1);
    const afterRun = await readFile(summary, "utf8");
    expect(afterRun).toMatch(/^# an earlier step\n\n### conformance run\n\n\*\*1 unexpected result\*\*\n/);
    expect(afterRun).toMatch(
      /\n\| FAIL \| reference \| `bad` \| `[^`]*\/bad\.yaml:10` \| `step 2 \(toolkit\.execute\) \/value\/output` \|\n/,
    );
    expect(afterRun).toContain(
      "| subject | passed | failed | baselined | skipped | unavailable |\n|---|---|---|---|---|---|\n| reference | 1 | 1 | 0 | 0 | |",
    );
    // The new failures come before the counts.
    expect(afterRun.indexOf("| FAIL |")).toBeLessThan(afterRun.indexOf("| subject | passed"));

    const merge = await runCli(["merge", report, "--json", join(dir, "merged.json")], 60_000, env);
    expect(merge.code).toBe(1);
    const diff = await runCli(["diff", join(fixtures, "reference-before.json"), join(fixtures, "reference-after.json")], 60_000, env);
    expect(diff.code).toBe(1);
    const all = await readFile(summary, "utf8");
    expect(all.slice(0, afterRun.length)).toBe(afterRun);
    expect(all.slice(afterRun.length)).toMatch(
      /^### conformance: 1 reports merged\n[\s\S]*\n## Conformance diff\n\n\*\*regressed: 3 new failures\*\*/,
    );
  });

  it("names an unavailable subject with its reason", () => {
    const report: Report = {
      version: 1,
      startedAt: "2026-12-01T00:00:00.000Z",
      finishedAt: "2026-12-01T00:00:01.000Z",
      subjects: [
        {
          name: "go",
          language: "go",
          package: "p",
          version: "?",
          capabilities: [],
          available: false,
          unavailableReason: "install exited with 1:\ngo: cannot find module | offline",
        },
      ],
      results: [],
    };
    expect(renderReportSummary(report, { title: "t", problems: ["go is unavailable: install exited with 1"] })).toContain(
      "| go | - | - | - | - | install exited with 1: go: cannot find module \\| offline |",
    );
  });
});
