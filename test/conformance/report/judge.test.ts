// The baseline's verdicts, one branch at a time, in process (the CLI tests of cli/baseline-gate.test.ts
// show the same end to end, but in a child process that mutation testing cannot reach): a listed
// failure is as expected only on exactly its listed checks, never by accident of status or order.
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { failedChecks, judge, loadBaseline, orphanedEntries, orphanProblems } from "../../../conformance/report/baseline.ts";
import type { ScenarioResult } from "../../../conformance/engine/run.ts";
import type { Entry } from "../../../conformance/schema/baseline.types.ts";

const a = "step 1 (runner.echo) /value/a";
const b = "step 1 (runner.echo) /value/b";
const later = "step 3 (runner.echo) /value/c";

const result = (status: ScenarioResult["status"], checks: string[] = [], extra: Partial<ScenarioResult> = {}): ScenarioResult => ({
  scenario: "s",
  baseId: "s",
  title: "t",
  file: "s.yaml",
  subject: "port",
  status,
  durationMs: 1,
  message: "",
  spec: ["core.tool-result"],
  tags: [],
  ...(checks.length ? { failures: checks.map((check) => ({ step: 0, check, message: `failed ${check}` })) } : {}),
  ...extra,
});
const entry = (extra: Partial<Entry> = {}): Entry => ({
  scenario: "s",
  status: "fail",
  clause: "core.tool-result",
  classification: "port-bug",
  reason: "the port does it otherwise",
  checks: [a],
  ...extra,
});
const listed = (extra: Partial<Entry> = {}) => new Map([["s", entry(extra)]]);

describe("judge, without an entry", () => {
  it("a failure or an error is unexpected; a pass or a skip is as expected", () => {
    expect(judge(result("fail", [a]), new Map()).outcome).toBe("unexpected-failure");
    expect(judge(result("error"), new Map()).outcome).toBe("unexpected-failure");
    expect(judge(result("pass"), new Map())).toEqual({ ...result("pass"), outcome: "as-expected" });
    expect(judge(result("skip"), new Map()).outcome).toBe("as-expected");
  });
});

describe("judge, with an entry", () => {
  it("carries the entry's expectation, checks and strict: false only when given", () => {
    expect(judge(result("fail", [a]), listed()).expected).toEqual({
      status: "fail",
      reason: "the port does it otherwise",
      clause: "core.tool-result",
      classification: "port-bug",
      checks: [a],
    });
    const loose = judge(result("fail", [a]), listed({ checks: undefined, strict: false })).expected!;
    expect(loose).toEqual({
      status: "fail",
      reason: "the port does it otherwise",
      clause: "core.tool-result",
      classification: "port-bug",
      strict: false,
    });
    expect("checks" in judge(result("fail", [a]), listed({ checks: undefined })).expected!).toBe(false);
    expect("strict" in judge(result("fail", [a]), listed({ strict: true })).expected!).toBe(false);
  });

  it("a pass is stale unless the entry is strict: false; a skip neither confirms nor refutes it", () => {
    expect(judge(result("pass"), listed()).outcome).toBe("unexpected-pass");
    expect(judge(result("pass"), listed({ strict: true })).outcome).toBe("unexpected-pass");
    expect(judge(result("pass"), listed({ strict: false })).outcome).toBe("as-expected");
    expect(judge(result("skip"), listed()).outcome).toBe("as-expected");
  });

  it("another status than the listed one is a new failure", () => {
    expect(judge(result("error"), listed()).outcome).toBe("unexpected-failure");
    expect(judge(result("fail", [a]), listed({ status: "error" })).outcome).toBe("unexpected-failure");
    expect(judge(result("error"), listed({ status: "error" })).outcome).toBe("as-expected");
  });

  it("an error, or an entry without checks, is as expected on its status alone", () => {
    expect(judge(result("error", [b]), listed({ status: "error" })).outcome).toBe("as-expected");
    expect(judge(result("fail", [b]), listed({ checks: undefined })).outcome).toBe("as-expected");
  });

  it("exactly the listed checks: as expected, with no lists of unlisted or stale checks", () => {
    const judged = judge(result("fail", [a]), listed());
    expect(judged.outcome).toBe("as-expected");
    expect("unlistedChecks" in judged || "staleChecks" in judged).toBe(false);
  });

  it("one check more is a new failure naming it; one fewer is a stale entry naming it", () => {
    const more = judge(result("fail", [a, b]), listed());
    expect(more).toMatchObject({ outcome: "unexpected-failure", unlistedChecks: [b] });
    expect("staleChecks" in more).toBe(false);
    const fewer = judge(result("fail", [a]), listed({ checks: [a, b] }));
    expect(fewer).toMatchObject({ outcome: "unexpected-pass", staleChecks: [b] });
    expect("unlistedChecks" in fewer).toBe(false);
    expect(judge(result("fail", [b]), listed()).outcome).toBe("unexpected-failure");
  });

  it("strict: false excuses a listed check that held, never one more", () => {
    expect(judge(result("fail", [a]), listed({ checks: [a, b], strict: false })).outcome).toBe("as-expected");
    expect(judge(result("fail", [a, b]), listed({ strict: false })).outcome).toBe("unexpected-failure");
  });

  it("a listed check of a step that did not run is stale, unless a new failure stopped that step", () => {
    const notRun = { notRun: [{ step: 2, line: 9, name: "step 3 (runner.echo)", reason: "an earlier step failed" }] };
    const quiet = judge(result("fail", [a], notRun), listed({ checks: [a, later] }));
    expect(quiet).toMatchObject({ outcome: "unexpected-pass", staleChecks: [later] });
    const behindNew = judge(result("fail", [a, b], notRun), listed({ checks: [a, later] }));
    expect(behindNew).toMatchObject({ outcome: "unexpected-failure", unlistedChecks: [b] });
    expect("staleChecks" in behindNew).toBe(false);
    // Only the step that did not run: a listed check of another step that held is still stale.
    const otherStep = judge(result("fail", [b], notRun), listed({ checks: [a, b] }));
    expect(otherStep).toMatchObject({ outcome: "unexpected-pass", staleChecks: [a] });
    // Behind a new failure too, only the checks of a step that did not run are excused, whichever of several.
    const twoNotRun = { notRun: [{ step: 4, line: 12, name: "step 5 (runner.echo)", reason: "x" }, notRun.notRun[0]] };
    const mixed = judge(result("fail", [b], twoNotRun), listed({ checks: [a, later] }));
    expect(mixed).toMatchObject({ outcome: "unexpected-failure", unlistedChecks: [b], staleChecks: [a] });
  });
});

describe("failedChecks", () => {
  it("each failed check once, in the order they failed", () => {
    expect(failedChecks(result("fail", [b, a, b]))).toEqual([b, a]);
    expect(failedChecks(result("pass"))).toEqual([]);
  });
});

describe("orphaned entries", () => {
  it("lists the entries naming no scenario of the run, and says so per subject", () => {
    const baseline = new Map([
      ["s", entry()],
      ["gone", entry({ scenario: "gone" })],
    ]);
    expect(orphanedEntries(baseline, new Set(["s"])).map((orphan) => orphan.scenario)).toEqual(["gone"]);
    expect(orphanProblems("port", ["gone"])).toEqual([
      'port baseline lists "gone", which is not a scenario (renamed or removed?): update the baseline',
    ]);
  });
});

describe("loadBaseline", () => {
  let dir: string;
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), "tnc-baseline-"));
  });
  afterAll(async () => {
    await rm(dir, { recursive: true, force: true });
  });
  const file = async (name: string, text: string) => {
    const path = join(dir, name);
    await writeFile(path, text);
    return path;
  };
  const head = "subject: port\npackage: p 1\nentries:\n";
  const item = (scenario: string, more = "") =>
    `  - scenario: ${scenario}\n    status: fail\n    checks: ["${a}"]\n    clause: core.tool-result\n    classification: port-bug\n    reason: the port differs here\n${more}`;

  it("a missing file is an empty baseline; entries are keyed by scenario", async () => {
    expect((await loadBaseline(join(dir, "none.yaml"))).size).toBe(0);
    const loaded = await loadBaseline(await file("ok.yaml", head + item("s") + item("t")));
    expect([...loaded.keys()]).toEqual(["s", "t"]);
    expect(loaded.get("t")).toMatchObject({ scenario: "t", checks: [a], reason: "the port differs here" });
  });

  it("names the file and line of a YAML error, a schema error, a missing checks list and a scenario listed twice", async () => {
    const broken = await file("broken.yaml", `${head}  - scenario: [s\n`);
    await expect(loadBaseline(broken)).rejects.toThrow(
      new RegExp(
        `^${broken}:\\d+: Flow sequence in block collection must be sufficiently indented and end with a \\] at line 5, column 1:$`,
      ),
    );
    const empty = await file("empty.yaml", "");
    await expect(loadBaseline(empty)).rejects.toThrow(
      `${empty}:1: invalid baseline at (top): must be object, found null (schema: conformance/schema/baseline.schema.json)`,
    );
    const wrong = await file("wrong.yaml", head + item("s").replace("status: fail", "status: broken"));
    await expect(loadBaseline(wrong)).rejects.toThrow(`${wrong}:5: invalid baseline at /entries/0/status:`);
    await expect(loadBaseline(wrong)).rejects.toThrow("(schema: conformance/schema/baseline.schema.json)");
    const noChecks = await file("no-checks.yaml", head + item("s").replace(`    checks: ["${a}"]\n`, ""));
    await expect(loadBaseline(noChecks)).rejects.toThrow(`${noChecks}:4: invalid baseline at /entries/0:`);
    await expect(loadBaseline(noChecks)).rejects.toThrow("list the check ids the scenario fails on");
    const otherProblem = await file("other.yaml", head + item("s").replace("    reason: the port differs here\n", ""));
    await expect(loadBaseline(otherProblem)).rejects.toThrow(
      `${otherProblem}:4: invalid baseline at /entries/0: missing key "reason" (add "reason") (schema: conformance/schema/baseline.schema.json)`,
    );
    const twice = await file("twice.yaml", head + item("s") + item("s"));
    await expect(loadBaseline(twice)).rejects.toThrow(`${twice}:10: scenario "s" is listed twice`);
  });

  it("refuses a strict: false entry without its measurement at its strict line, and takes one with it", async () => {
    const loose = await file("loose.yaml", head + item("s", "    strict: false\n"));
    await expect(loadBaseline(loose)).rejects.toThrow(`${loose}:10: "s" is strict: false, but its reason quotes no measured rate`);
    const measured = item("s", "    strict: false\n").replace(
      "reason: the port differs here",
      "reason: 'flaky 1/6 by `conformance run --repeat 6 --filter s`'",
    );
    expect((await loadBaseline(await file("measured.yaml", head + measured))).get("s")?.strict).toBe(false);
    const strict = await file("strict.yaml", head + item("s", "    strict: true\n"));
    expect((await loadBaseline(strict)).get("s")?.strict).toBe(true);
  });
});
