// Snapshots taken when an operation settles (step `snapshotOnSettle`, assertion `settled: true`): what
// held at the moment the subject answered, so "closed before it rejected" differs from "closed later".
import { toolnexusSuite } from "../../../conformance/suite/toolnexus.ts";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { FixtureKind } from "../../../conformance/scenario/fixture.ts";
import { runScenario } from "../../../conformance/engine/run.ts";
import { lintPaths } from "../../../conformance/scenario/lint.ts";
import { expandYaml, fakeSubject, ok } from "../helpers.ts";

/** A fixture whose snapshot is a live object the fake subject changes: {open}. */
function liveFixture() {
  const state = { open: 0 };
  const kind: FixtureKind = {
    kind: "live",
    actions: [],
    varKeys: [],
    optionsSchema: { type: "object" },
    start: async () => ({ vars: {}, act: async () => undefined, snapshot: async () => ({ ...state }), stop: async () => undefined }),
  };
  return { state, kinds: new Map([[kind.kind, kind]]) };
}

const scenarioText = `
id: t.settled
title: t
spec: [mcp.cancel.cleanup]
fixtures: {srv: {kind: live}}
steps:
  - op: runner.echo
    with: {value: 1}
    snapshotOnSettle: [srv]
    expect:
      - {fixture: srv, at: /open, equals: 0, settled: true}
      - {fixture: srv, at: /open, equals: 0, eventuallyMs: 500}
`;

describe("snapshotOnSettle / settled", () => {
  it("passes when the subject closed before answering", async () => {
    const { state, kinds } = liveFixture();
    const subject = fakeSubject(() => {
      state.open = 1;
      state.open = 0; // closed, then answered
      return ok({ value: 1 });
    });
    const result = await runScenario(expandYaml(scenarioText)[0], subject, { fixtureKinds: kinds });
    expect(result.status).toBe("pass");
  });

  it("fails, saying so, when the subject answers first and closes a moment later, which the eventually-check alone lets through", async () => {
    const { state, kinds } = liveFixture();
    const subject = fakeSubject(() => {
      state.open = 1;
      setTimeout(() => (state.open = 0), 30); // answered, closed in the background
      return ok({ value: 1 });
    });
    const result = await runScenario(expandYaml(scenarioText)[0], subject, { fixtureKinds: kinds });
    expect(result.status).toBe("fail");
    expect(result.failures).toHaveLength(1);
    expect(result.message).toMatch(
      /inline\.yaml:\d+: step 1 \(op runner\.echo\), fixture srv at \/open: not equal.*\(in the snapshot taken when the operation settled\)/s,
    );
    // Without `settled`, the same subject passes: the assertion that re-reads later sees it closed.
    const lenient = await runScenario(
      expandYaml(scenarioText.replace(/^ {6}- \{fixture: srv, at: \/open, equals: 0, settled: true\}\n/m, ""))[0],
      subject,
      { fixtureKinds: kinds },
    );
    expect(lenient.status).toBe("pass");
  });
});

describe("lint of settled", () => {
  let dir: string;
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), "tnc-settled-lint-"));
  });
  afterAll(() => rm(dir, { recursive: true, force: true }));

  const lint = async (body: string) => {
    const file = join(dir, "case.yaml");
    await writeFile(
      file,
      `id: case\ntitle: t\nspec: [mcp.cancel.cleanup]\nrequires: [mcp.http]\nfixtures: {hung: {kind: mcp-hung-http}, none: {kind: mcp-unreachable}}\nsteps:\n${body}`,
    );
    return (await lintPaths([file], toolnexusSuite)).diagnostics.map((d) => `${d.line}: ${d.message}`);
  };

  it("accepts settled on a fixture the step snapshots on settle", async () => {
    expect(
      await lint(
        `  - op: toolkit.create\n    with: {handle: tk}\n    snapshotOnSettle: [hung]\n    expect:\n      - {fixture: hung, at: /connections/open, equals: 0, settled: true}\n`,
      ),
    ).toEqual([]);
  });

  it("names the step to fix when settled reads a fixture the step does not snapshot, or is combined with eventuallyMs", async () => {
    const problems = await lint(
      `  - op: toolkit.create\n    with: {handle: tk}\n    expect:\n      - {fixture: hung, at: /connections/open, equals: 0, settled: true, eventuallyMs: 100}\n`,
    );
    expect(problems).toEqual([
      expect.stringMatching(/^10: .*snapshotOnSettle does not list fixture "hung"/),
      expect.stringMatching(/^10: eventuallyMs re-reads the snapshot, but settled: true reads the one taken on settle/),
    ]);
  });

  it("refuses an undeclared fixture and one that observes nothing in snapshotOnSettle, and settled without fixture", async () => {
    const problems = await lint(
      `  - op: toolkit.create\n    with: {handle: tk}\n    snapshotOnSettle: [nope, none]\n    expect:\n      - {at: /value, present: true, settled: true}\n`,
    );
    expect(problems).toEqual([
      expect.stringMatching(/^9: fixture "nope" is not declared/),
      expect.stringMatching(/^9: fixture kind "mcp-unreachable" observes nothing/),
      expect.stringMatching(/^11: settled: true reads a fixture's snapshot taken on settle/),
    ]);
  });
});
