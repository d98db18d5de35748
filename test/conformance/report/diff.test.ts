// `conformance diff` on real reports (test/conformance/report/diff-fixtures/README.md says how each was
// made): every transition named as what it is, the JSON valid against its schema, and the exit status
// (1 regressed, 0 not, 2 bad input naming the file and what is wrong).
import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { diffReports } from "../../../conformance/report/diff.ts";
import { renderDiffConsole, renderDiffMarkdown } from "../../../conformance/report/diff-render.ts";
import { readJsonReport } from "../../../conformance/report/json-report.ts";
import { compileSchema } from "../../../runners/protocol/json-schema.ts";
import type { ReportDiff } from "../../../conformance/schema/diff.types.ts";
import type { Report } from "../../../conformance/schema/report.types.ts";
import { runCli } from "../helpers.ts";

const require = createRequire(import.meta.url);
const validateDiff = compileSchema<ReportDiff>(require("../../../conformance/schema/diff.schema.json"));
const fixtures = fileURLToPath(new URL("./diff-fixtures/", import.meta.url));
const fixture = (name: string) => join(fixtures, name);
const load = (name: string) => readJsonReport(fixture(name));
/** Each transition as "scenario kind", the way a reader would say it. */
const transitions = (diff: ReportDiff) =>
  diff.subjects.flatMap((subject) => subject.transitions.map((transition) => `${transition.scenario} ${transition.kind}`)).sort();

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), "tnc-diff-"));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe("diff of the reference before and after a planted change", () => {
  it("names each transition: a new failing check, new failures, a fix, an added and a removed scenario", async () => {
    const diff = diffReports(await load("reference-before.json"), await load("reference-after.json"));
    expect(validateDiff(diff), JSON.stringify(validateDiff.errors)).toBe(true);
    expect(transitions(diff)).toEqual([
      "core/tool-result new-failing-check",
      "core/unknown-tool new-failure",
      "toolkit/close added",
      "toolkit/disable-tools new-failure",
      "toolkit/duplicates fixed",
      "toolkit/order removed",
    ]);
    const [reference] = diff.subjects;
    expect(reference.counts).toEqual({ regressions: 3, fixes: 1, added: 1, removed: 1, other: 0, unchanged: 0 });
    const byScenario = new Map(reference.transitions.map((transition) => [transition.scenario, transition]));
    // Failing before and after: only the check that is new counts, at its own line.
    expect(byScenario.get("core/tool-result")).toMatchObject({
      regression: true,
      newChecks: ["step 2 (toolkit.execute) /value/isError"],
      file: "fixtures/scenarios/core/tool-result.yaml:19",
    });
    // Its old failing check (step 4) is not fixed: the after run stopped at step 2 and never got there.
    expect(byScenario.get("core/tool-result")?.fixedChecks).toBeUndefined();
    expect(byScenario.get("core/tool-result")?.unreachedChecks).toEqual(["step 4 (toolkit.execute) /value"]);
    expect(byScenario.get("core/unknown-tool")).toMatchObject({
      before: { status: "pass" },
      after: { status: "fail", checks: ["step 2 (toolkit.execute) /value"] },
      file: "fixtures/scenarios/core/unknown-tool.yaml:18",
    });
    expect(byScenario.get("toolkit/duplicates")).toMatchObject({
      regression: false,
      before: { status: "fail" },
      after: { status: "pass" },
    });
    // The edited scenario is said to have changed, once in the notes and on its transition.
    expect(byScenario.get("toolkit/disable-tools")?.definitionChanged).toBe(true);
    expect(diff.notes).toEqual([expect.stringContaining("1 scenario changed definition between the reports (toolkit/disable-tools)")]);
    // The regressions come first.
    expect(reference.transitions.slice(0, 3).every((transition) => transition.regression)).toBe(true);
    expect(diff.regressed).toBe(true);
  });

  it("renders the new failures with file:line and check on the console and in Markdown", async () => {
    const diff = diffReports(await load("reference-before.json"), await load("reference-after.json"), {
      before: "before.json",
      after: "after.json",
    });
    const text = renderDiffConsole(diff);
    expect(text).toContain("reference: 3 new failures, 1 fix, 1 added, 1 removed, 0 other (0 unchanged)");
    expect(text).toMatch(
      /NEW CHECK\s+core\/tool-result {2}fail -> fail\n {6}at fixtures\/scenarios\/core\/tool-result.yaml:19\n {6}new check: step 2 \(toolkit.execute\) \/value\/isError/,
    );
    expect(text.split("\n").at(-1)).toBe("regressed: 3 new failures");
    const markdown = renderDiffMarkdown(diff);
    expect(markdown).toContain("**regressed: 3 new failures**");
    expect(markdown).toContain(
      "| 🔴 new failure | `core/unknown-tool` | `fixtures/scenarios/core/unknown-tool.yaml:18` | pass → fail | `step 2 (toolkit.execute) /value` |",
    );
    expect(markdown).toContain("| reference | **3** | 1 | 1 | 1 | 0 | 0 |");
  });

  it("nothing changed: no transition, nothing regressed", async () => {
    const report = await load("reference-after.json");
    const diff = diffReports(report, report);
    expect(transitions(diff)).toEqual([]);
    expect(diff.subjects[0].counts.unchanged).toBe(5);
    expect(diff.regressed).toBe(false);
  });
});

describe("diff of two python releases' history reports", () => {
  it("pairs python@0.14.0 with python@0.15.0, says so and that they were built differently, and names the two fixes", async () => {
    const diff = diffReports(await load("python@0.14.0.json"), await load("python@0.15.0.json"));
    expect(validateDiff(diff), JSON.stringify(validateDiff.errors)).toBe(true);
    expect(diff.subjects).toHaveLength(1);
    expect(diff.subjects[0]).toMatchObject({
      subject: "python@0.14.0 -> python@0.15.0",
      change: "same",
      origin: { before: expect.stringContaining("0.14.0"), after: expect.stringContaining("0.15.0") },
    });
    expect(transitions(diff)).toEqual([
      "client/faults/retry-after-overrides-backoff[anthropic-run] fixed",
      "client/faults/retry-after-overrides-backoff[openai-run] fixed",
    ]);
    expect(diff.subjects[0].transitions[0]).toMatchObject({
      before: { checks: ["step 3 (client.run) /elapsedMs"] },
      file: "fixtures/scenarios/client/faults/retry-after-overrides-backoff.yaml:21",
    });
    expect(diff.notes).toEqual([
      "python@0.14.0 (before) and python@0.15.0 (after) are compared as one subject: the same runner under two names",
      expect.stringMatching(
        /^python@0.14.0 -> python@0.15.0 was built differently: toolnexus 0.14.0 \(published toolnexus==0.14.0\) before, toolnexus 0.15.0 \(published toolnexus==0.15.0\) after; compared anyway$/,
      ),
    ]);
    expect(diff.regressed).toBe(false);
  });
});

describe("diff of a port's CI reports before and after a baselined port change", () => {
  it("a fix of a baselined failure is named fixed, its before side marked baselined; the baselined failures that stay are unchanged", async () => {
    const [before, after] = [await load("ci-python@0.14.0.json"), await load("ci-python@0.15.0.json")];
    // The after run's own gate failed on the fix (XPASS: the entries are stale), which diff reports as a fix, not a regression.
    expect(
      after.results
        .filter((result) => result.outcome === "unexpected-pass")
        .map((result) => result.scenario)
        .sort(),
    ).toEqual(["client/faults/retry-after-overrides-backoff[anthropic-run]", "client/faults/retry-after-overrides-backoff[openai-run]"]);
    const diff = diffReports(before, after);
    expect(validateDiff(diff), JSON.stringify(validateDiff.errors)).toBe(true);
    expect(transitions(diff)).toEqual([
      "client/faults/retry-after-overrides-backoff[anthropic-run] fixed",
      "client/faults/retry-after-overrides-backoff[openai-run] fixed",
    ]);
    for (const transition of diff.subjects[0].transitions)
      expect(transition).toMatchObject({
        before: { status: "fail", baselined: true, checks: ["step 3 (client.run) /elapsedMs"] },
        after: { status: "pass" },
      });
    expect(diff.subjects[0].counts).toMatchObject({ regressions: 0, fixes: 2, unchanged: 5 });
    expect(diff.regressed).toBe(false);
    expect(renderDiffConsole(diff)).toContain(
      "FIXED        client/faults/retry-after-overrides-backoff[openai-run]  fail (baselined) -> pass",
    );
  });
});

describe("subjects and harness versions", () => {
  it("a subject that became unavailable is a regression, with its reason; its scenarios are not listed as removed", async () => {
    const before = await load("reference-after.json");
    const after: Report = {
      ...before,
      subjects: before.subjects.map((subject) => ({ ...subject, available: false, unavailableReason: "could not start: planted" })),
      results: [],
    };
    const diff = diffReports(before, after);
    expect(diff.subjects[0]).toMatchObject({
      change: "became-unavailable",
      unavailableReason: "could not start: planted",
      transitions: [],
    });
    expect(diff.regressed).toBe(true);
    expect(renderDiffConsole(diff)).toContain("reference: became unavailable: could not start: planted");
    expect(diffReports(after, before).subjects[0].change).toBe("became-available");
    expect(diffReports(after, before).regressed).toBe(false);
  });

  it("reports of different harness versions are compared, and said so", async () => {
    const before = await load("reference-before.json");
    const diff = diffReports({ ...before, harness: { version: "0.0.9" } }, await load("reference-after.json"));
    expect(diff.notes[0]).toMatch(
      /^the reports come from different harness versions \(0.0.9 before, 0.1.0 after\): the suites may differ; compared anyway$/,
    );
    expect(transitions(diff)).toHaveLength(6);
  });

  it("a subject only in one report is added or removed, not paired with another runner", async () => {
    const reference = await load("reference-after.json");
    const python = await load("python@0.15.0.json");
    const diff = diffReports(reference, python);
    expect(diff.subjects.map((subject) => `${subject.subject} ${subject.change}`)).toEqual(["python@0.15.0 added", "reference removed"]);
  });
});

describe("conformance diff on the command line", () => {
  it("exits 1 when something regressed and writes JSON and Markdown", async () => {
    const json = join(dir, "diff.json");
    const markdown = join(dir, "diff.md");
    const { code, stdout } = await runCli([
      "diff",
      fixture("reference-before.json"),
      fixture("reference-after.json"),
      "--json",
      json,
      "--markdown",
      markdown,
    ]);
    expect(code).toBe(1);
    expect(stdout.trim().split("\n").at(-1)).toBe("regressed: 3 new failures");
    expect(validateDiff(JSON.parse(await readFile(json, "utf8")))).toBe(true);
    expect(await readFile(markdown, "utf8")).toContain("## Conformance diff");
  });

  it("exits 0 when nothing regressed", async () => {
    const { code, stdout } = await runCli(["diff", fixture("python@0.14.0.json"), fixture("python@0.15.0.json")]);
    expect(code).toBe(0);
    expect(stdout.trim().split("\n").at(-1)).toBe("nothing regressed");
  });

  it("exits 2 on a cut-short, a foreign or a missing file, naming it and what is wrong", async () => {
    const text = await readFile(fixture("reference-after.json"), "utf8");
    const cut = join(dir, "cut.json");
    await writeFile(cut, text.slice(0, 200));
    const foreign = join(dir, "foreign.json");
    await writeFile(foreign, JSON.stringify({ version: 1, before: {}, after: {} }));
    const notJson = join(dir, "junit.xml");
    await writeFile(notJson, "<testsuites/>");
    const cases = [
      { file: cut, message: `${cut} is cut short (200 bytes, the JSON ends early)` },
      { file: foreign, message: `${foreign} is not a conformance report: (top) must have required property 'startedAt'` },
      { file: notJson, message: `${notJson} is not JSON: Unexpected token '<'` },
      { file: join(dir, "missing.json"), message: "no such file or directory" },
    ];
    for (const { file, message } of cases) {
      const { code, stderr } = await runCli(["diff", fixture("reference-before.json"), file]);
      expect(code, file).toBe(2);
      expect(stderr).toContain(message);
    }
  });
});
