// run --subjects-at-once N: subjects side by side print and report exactly what they print and report one
// after another. The in-process reference comes first and is the slower (a tool that answers after
// 600 ms), so the ad-hoc runner after it finishes first and its lines must wait; the runner fails one
// scenario, so a failure's lines are compared too.
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterEach, describe, expect, it, vi } from "vitest";
import { runAgainstSubjects } from "../../../conformance/run/against-subjects.ts";
import { resultSignature } from "../../../conformance/report/comparable.ts";
import { toolnexusDurationsFile, toolnexusSuite } from "../../../conformance/suite/toolnexus.ts";
import { echoScenario, expandYaml } from "../helpers.ts";

const root = fileURLToPath(new URL("../../../", import.meta.url));
const runnerCommand = `FAKE_RUNNER_MODE=bad-value exec ${process.execPath} ${join(root, "test/conformance/fake-runner.mjs")}`;

const echo = (id: string, value: string) => expandYaml(echoScenario(id, value));
const slowTool = expandYaml(`id: slow
title: t
spec: [core.tool-result]
requires: [mcp.http]
fixtures:
  web: {kind: mcp-abc, options: {transport: http, slowTools: {b: {afterMs: 600}}}}
steps:
  - op: toolkit.create
    with: {handle: tk, mcpConfig: {mcpServers: {web: "\${web.server}"}}}
    expect:
      - {at: /value/status, equals: {web: connected}}
  - op: toolkit.execute
    with: {toolkit: tk, name: web_b, args: {n: 4}}
    expect:
      - {at: /value/isError, equals: false}
`);
const scenarios = [...slowTool, ...echo("one", "1"), ...echo("trigger", "trigger"), ...echo("three", "3")];

/** The console lines and the results of one run, times left out. */
async function run(subjectsAtOnce: number) {
  const lines: string[] = [];
  vi.spyOn(console, "log").mockImplementation((line: string) => void lines.push(line.replace(/\d+(\.\d+)? ?m?s\b/g, "T")));
  const { report, problems } = await runAgainstSubjects(
    scenarios,
    { subject: "reference", runners: [], runnerCommand, jobs: 2 },
    { subjectsAtOnce, fixtureKinds: toolnexusSuite.fixtureKinds, durationsFile: toolnexusDurationsFile },
  );
  vi.restoreAllMocks();
  return { lines, subjects: report.subjects.map((subject) => subject.name), results: report.results.map(resultSignature), problems };
}

afterEach(() => vi.restoreAllMocks());

describe("run --subjects-at-once", () => {
  it("gives the output and report of subjects one after another", async () => {
    const inTurn = await run(1);
    const sideBySide = await run(2);
    expect(inTurn.subjects).toEqual(["reference", "custom"]);
    expect(
      inTurn.results.filter((result) => result.status !== "pass").map((result) => `${result.subject} ${result.scenario} ${result.status}`),
    ).toEqual([
      "custom slow skip", // the fake runner has no mcp.http
      "custom trigger error", // an answer that does not fit runner.echo's output schema
    ]);
    expect(inTurn.lines.findIndex((line) => line.startsWith("== custom"))).toBeGreaterThan(
      inTurn.lines.findIndex((line) => line.startsWith("== reference")),
    );
    expect(sideBySide).toEqual(inTurn);
  });
});
