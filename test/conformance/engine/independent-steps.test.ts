// After a step fails, a step marked `independent` still runs and reports, when every step it depends on
// (the creator of each handle it names, every earlier fixture step) ran and passed; the others are
// reported as not run, with why, and a baseline judges every failing check.
import { describe, expect, it } from "vitest";
import { runScenario } from "../../../conformance/engine/run.ts";
import { judge } from "../../../conformance/report/baseline.ts";
import { formatNotRun, formatResult } from "../../../conformance/report/console.ts";
import type { Entry } from "../../../conformance/schema/baseline.types.ts";
import { toolnexusSuite } from "../../../conformance/suite/toolnexus.ts";
import { expandYaml, fakeSubject, ok, recordingFixture } from "../helpers.ts";

const suiteFixtures = { fixtureKinds: toolnexusSuite.fixtureKinds };

// Step 2 fails (the fake's tools are wrong); steps 3 and 6 are independent, 4 is not, and 5 is
// independent but names the toolkit step 4 would have created.
const scenarioText = `
id: t.independent
title: t
spec: [core.tool-result]
steps:
  - op: toolkit.create
    with: {handle: t1}
  - op: toolkit.tools
    with: {toolkit: t1}
    expect:
      - {at: /value/tools, equals: [a]}
  - op: toolkit.warnings
    independent: true
    with: {toolkit: t1}
    expect:
      - {at: /value/warnings, equals: []}
  - op: toolkit.create
    with: {handle: t2}
  - op: toolkit.warnings
    independent: true
    with: {toolkit: t2}
  - op: toolkit.create
    independent: true
    with: {handle: t3}
    expect:
      - {at: /value/status, equals: {}}
`;

/** Tools are [b] (step 2 fails), warnings ["w"] (step 3 fails), every toolkit is created with no servers. */
const answers = (op: string) =>
  op === "toolkit.tools" ? ok({ tools: ["b"] }) : op === "toolkit.warnings" ? ok({ warnings: ["w"] }) : ok({ status: {} });

/** A baseline listing t.independent as failing on these checks. */
const entry = (checks: Entry["checks"]): Map<string, Entry> =>
  new Map([
    [
      "t.independent",
      { scenario: "t.independent", status: "fail", checks, clause: "core.tool-result", classification: "port-differs", reason: "r" },
    ],
  ]);

describe("independent steps", () => {
  it("a step after a failed one runs when marked independent and its handle's creator passed, and reports its own failure", async () => {
    const subject = fakeSubject(answers);
    const result = await runScenario(expandYaml(scenarioText)[0], subject, suiteFixtures);
    expect(result.status).toBe("fail");
    expect(result.failures?.map((failure) => failure.check)).toEqual([
      "step 2 (toolkit.tools) /value/tools",
      "step 3 (toolkit.warnings) /value/warnings",
    ]);
    expect(subject.calls.map((call) => [call.op, call.input])).toEqual([
      ["toolkit.create", { handle: "t1" }],
      ["toolkit.tools", { toolkit: "t1" }],
      ["toolkit.warnings", { toolkit: "t1" }],
      ["toolkit.create", { handle: "t3" }],
    ]);
  });

  it("a step not marked independent, and one whose handle's creator did not run, are reported as not run, with why", async () => {
    const result = await runScenario(expandYaml(scenarioText)[0], fakeSubject(answers), suiteFixtures);
    expect(result.notRun).toEqual([
      {
        step: 3,
        line: 17,
        name: "step 4 (toolkit.create)",
        reason: "step 2 (toolkit.tools) failed, and this step is not marked independent",
      },
      {
        step: 4,
        line: 19,
        name: "step 5 (toolkit.warnings)",
        reason: "it depends on step 4 (toolkit.create) (it creates toolkit t2), which did not run",
      },
    ]);
    const printed = formatResult(judge(result, new Map()));
    expect(printed).toContain("not run: step 4 (toolkit.create): step 2 (toolkit.tools) failed, and this step is not marked independent");
    expect(printed).toContain(
      "not run: step 5 (toolkit.warnings): it depends on step 4 (toolkit.create) (it creates toolkit t2), which did not run",
    );
  });

  it("a step whose handle's creator failed does not run, even when marked independent", async () => {
    const text = scenarioText.replace(
      "    with: {handle: t1}\n",
      "    with: {handle: t1}\n    expect:\n      - {at: /value/status, equals: {x: failed}}\n",
    );
    const subject = fakeSubject(answers);
    const result = await runScenario(expandYaml(text)[0], subject, suiteFixtures);
    expect(result.failures?.map((failure) => failure.check)).toEqual(["step 1 (toolkit.create) /value/status"]);
    expect(subject.calls.map((call) => call.input)).toEqual([{ handle: "t1" }, { handle: "t3" }]);
    expect(result.notRun?.map((step) => [step.name, step.reason])).toEqual([
      ["step 2 (toolkit.tools)", "step 1 (toolkit.create) failed, and this step is not marked independent"],
      ["step 3 (toolkit.warnings)", "it depends on step 1 (toolkit.create) (it creates toolkit t1), which failed"],
      ["step 4 (toolkit.create)", "step 1 (toolkit.create) failed, and this step is not marked independent"],
      ["step 5 (toolkit.warnings)", "it depends on step 4 (toolkit.create) (it creates toolkit t2), which did not run"],
    ]);
    expect(formatNotRun(result.notRun!)[0]).toBe(
      "not run: step 2 (toolkit.tools), step 4 (toolkit.create): step 1 (toolkit.create) failed, and this step is not marked independent",
    );
  });

  it("an independent step after a fixture step that did not run does not run: the fixture step set its scene", async () => {
    const fixture = recordingFixture();
    const text = `id: t.scene\ntitle: t\nspec: [core.tool-result]\nfixtures: {srv: {kind: recording}}\nsteps:
  - op: runner.echo
    with: {value: 1}
    expect:
      - {at: /value/value, equals: 2}
  - fixture: srv
    action: poke
  - op: runner.echo
    independent: true
    with: {value: 3}
`;
    const kinds = new Map([[fixture.kind.kind, fixture.kind]]);
    const result = await runScenario(
      expandYaml(text)[0],
      fakeSubject((_, input) => ok(input)),
      { fixtureKinds: kinds },
    );
    expect(fixture.actions).toEqual([]);
    expect(result.notRun?.map((step) => step.reason)).toEqual([
      "step 1 (runner.echo) failed, and this step is not marked independent",
      "it depends on step 2 (fixture srv poke) (a fixture step), which did not run",
    ]);
    const marked = await runScenario(
      expandYaml(text.replace("action: poke", "action: poke\n    independent: true"))[0],
      fakeSubject((_, input) => ok(input)),
      { fixtureKinds: kinds },
    );
    expect(fixture.actions).toEqual([{ action: "poke", input: {} }]);
    expect(marked.notRun).toBeUndefined();
  });

  it("a baseline judges every failing check: one listing only the first failing step's checks meets a new failure", async () => {
    const result = await runScenario(expandYaml(scenarioText)[0], fakeSubject(answers), suiteFixtures);
    expect(judge(result, entry(["step 2 (toolkit.tools) /value/tools"]))).toMatchObject({
      outcome: "unexpected-failure",
      unlistedChecks: ["step 3 (toolkit.warnings) /value/warnings"],
    });
    expect(judge(result, entry(["step 2 (toolkit.tools) /value/tools", "step 3 (toolkit.warnings) /value/warnings"]))).toMatchObject({
      outcome: "as-expected",
    });
  });

  it("a listed check of a step a new failure kept from running is not called stale; with no new failure, it is", async () => {
    const text = scenarioText.replace(
      "    with: {handle: t1}\n",
      "    with: {handle: t1}\n    expect:\n      - {at: /value/status, equals: {x: failed}}\n",
    );
    const result = await runScenario(expandYaml(text)[0], fakeSubject(answers), suiteFixtures);
    const listed: [string] = ["step 3 (toolkit.warnings) /value/warnings"];
    const behindNew = judge(result, entry(listed));
    expect(behindNew).toMatchObject({ outcome: "unexpected-failure", unlistedChecks: ["step 1 (toolkit.create) /value/status"] });
    expect(behindNew.staleChecks).toBeUndefined();
    expect(judge(result, entry(["step 1 (toolkit.create) /value/status", ...listed]))).toMatchObject({
      outcome: "unexpected-pass",
      staleChecks: ["step 3 (toolkit.warnings) /value/warnings"],
    });
  });
});
