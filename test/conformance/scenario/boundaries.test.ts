import { describe, expect, it } from "vitest";
import { admittedClasses, classify } from "../../../conformance/scenario/boundaries/classes.ts";
import { judge } from "../../../conformance/scenario/boundaries/gate.ts";
import { formatBoundaryTable } from "../../../conformance/scenario/boundaries/format.ts";
import { boundaryTable, type SuiteBoundaries } from "../../../conformance/scenario/boundaries/table.ts";
import { parseScenarioText } from "../../../conformance/scenario/load.ts";
import type { BoundaryExplanations } from "../../../conformance/schema/boundaries.types.ts";
import { toolnexusBoundaries } from "../../../conformance/suite/boundaries.ts";
import { expandYaml } from "../helpers.ts";

describe("boundary classes", () => {
  const count = { type: "integer", minimum: 0, default: 2 };
  it("gives each type the classes it admits", () => {
    expect(admittedClasses(count)).toEqual(["absent", "null", "zero", "negative", "fractional", "above-default", "wrong-type"]);
    expect(admittedClasses({ type: "integer" })).not.toContain("above-default");
    expect(admittedClasses({ type: "string" })).toEqual(["absent", "null", "empty", "non-ascii", "wrong-type"]);
    expect(admittedClasses({ type: "string" }, true)).toEqual(["null", "empty", "non-ascii", "wrong-type"]);
    expect(admittedClasses({ enum: ["a", "b"] })).toEqual(["absent", "null", "wrong-type"]);
    expect(admittedClasses({ type: "array" })).toEqual(["absent", "null", "empty", "wrong-type"]);
    expect(admittedClasses({})).toEqual(["absent", "null", "empty", "zero", "negative", "fractional", "non-ascii"]);
  });

  it("classifies a value given to a field", () => {
    expect(classify(undefined, count)).toEqual(["absent"]);
    expect(classify(null, count)).toEqual(["null"]);
    expect(classify(0, count)).toEqual(["zero"]);
    expect(classify(-1.5, count)).toEqual(["negative", "fractional"]);
    expect(classify(3, count)).toEqual(["above-default"]);
    expect(classify(4, count)).toEqual([]);
    expect(classify("3", count)).toEqual(["wrong-type"]);
    expect(classify("", { type: "string" })).toEqual(["empty"]);
    expect(classify("héllo", { type: "string" })).toEqual(["non-ascii"]);
    expect(classify("${llm.baseUrl}", { type: "string" })).toEqual([]);
    expect(classify("${llm.url}/é/v1", { type: "string" })).toEqual(["non-ascii"]);
    expect(classify("${é}/v1", { type: "string" })).toEqual([]);
    expect(classify([], { type: ["array", "string"] })).toEqual(["empty"]);
    expect(classify({}, { type: "object" })).toEqual(["empty"]);
    expect(classify("stdio", { enum: ["local", "remote"] })).toEqual(["wrong-type"]);
    expect(classify("local", { enum: ["local", "remote"] })).toEqual([]);
  });
});

const scenario = (id: string, steps: string) => `
id: ${id}
title: t
spec: [client.loop.max-turns]
matrix: [openai-run, anthropic-stream]
fixtures:
  llm: {kind: llm-mock}
steps:
${steps}`;

const tableOf = (...texts: string[]) => boundaryTable(texts.flatMap(expandYaml), toolnexusBoundaries);

describe("boundary table", () => {
  const zeroTurns = scenario(
    "t/zero",
    `  - fixture: llm
    action: script
    with: [{status: 503, retryAfter: 2.5}, {text: ok}]
  - op: client.create
    with: {handle: c, style: "\${path.style}", baseUrl: "\${llm.baseUrl}", model: m1, maxTurns: 0}
  - op: "\${path.op}"
    with: {client: c, prompt: "", id: ""}
`,
  );

  it("counts each scenario once per cell, from the literal values of its expanded steps", () => {
    const table = tableOf(zeroTurns, zeroTurns.replace("t/zero", "t/zero-again"));
    expect([...table.get("client.create.maxTurns")!.cells.get("zero")!]).toEqual(["t/zero", "t/zero-again"]);
    expect(table.get("client.create.maxTurns")!.cells.get("absent")!.size).toBe(0);
    expect(table.get("client.create.timeoutMs")!.cells.get("absent")!.size).toBe(2);
    expect(table.get("llm-mock.reply.retryAfter")!.cells.get("fractional")!.size).toBe(2);
    expect(table.get("client.create.baseUrl")!.cells.get("empty")!.size).toBe(0);
  });

  it("reads a matrix step as the operation of each path", () => {
    const table = tableOf(zeroTurns);
    expect(table.get("client.run.prompt")!.cells.get("empty")!.size).toBe(1);
    expect(table.get("client.stream.id")!.cells.get("empty")!.size).toBe(1);
    expect(table.get("client.run.prompt")!.cells.has("absent")).toBe(false);
  });

  it("reads MCP server entries from a config and from a fixture's extra keys", () => {
    const mcp = `
id: t/mcp
title: t
spec: [mcp.config.timeout]
fixtures:
  srv: {kind: mcp-abc, options: {server: {timeout: 0}}}
steps:
  - op: toolkit.create
    with: {handle: t, mcpConfig: {servers: {a: {command: [x], type: stdio, cwd: ""}, b: "\${srv.server}"}}}
`;
    const table = tableOf(mcp);
    expect(table.get("mcp-server.timeout")!.cells.get("zero")!.size).toBe(1);
    expect(table.get("mcp-server.type")!.cells.get("wrong-type")!.size).toBe(1);
    expect(table.get("mcp-server.cwd")!.cells.get("empty")!.size).toBe(1);
    // The fixture's keys are merged into an entry it completes: its missing keys are not "absent".
    expect(table.get("mcp-server.url")!.cells.get("absent")!.size).toBe(1);
  });
});

function explanations(text: string) {
  const { scenario: file, diagnostics } = parseScenarioText("SPEC-BOUNDARIES.yaml", text);
  expect(diagnostics).toEqual([]);
  return { file, entries: (file.data as BoundaryExplanations).explanations };
}

describe("boundary gate", () => {
  const suite: Pick<SuiteBoundaries, "groups" | "records"> = {
    groups: [{ name: "g", fields: { n: { type: "integer", default: 1 } } }],
    records: (scenario) => (scenario.baseId === "t/zero" ? [{ group: "g", values: { n: 0 } }] : []),
  };
  const table = () => {
    const full = boundaryTable(expandYaml(scenario("t/zero", "  - op: session.reset\n")), suite);
    // Only the suite's group, so each test names every cell it leaves open.
    return new Map([...full].filter(([id]) => id.startsWith("g.")));
  };
  const allButZero = `explanations:
  - fields: [g.n]
    classes: [absent, "null", negative, fractional, above-default, wrong-type]
    kind: no-meaning
    reason: a field of a test's own group
`;

  it("passes when every empty cell is explained, and reports each cell's status", () => {
    const { file, entries } = explanations(allButZero);
    const gate = judge(table(), file, entries);
    expect(gate.diagnostics).toEqual([]);
    expect(gate.cells.get("g.n")!.get("zero")).toEqual({ status: "covered", scenarios: ["t/zero"] });
    expect(gate.cells.get("g.n")!.get("null")).toEqual({ status: "explained", kind: "no-meaning", line: 2 });
    expect(formatBoundaryTable(gate, "SPEC-BOUNDARIES.yaml").at(-1)).toBe(
      "boundary table: 1 fields, 7 cells: 1 covered by scenarios, 6 explained as meaningless, 0 not yet covered (debt, SPEC-BOUNDARIES.yaml), 0 unexplained",
    );
  });

  it("fails on a cell neither covered nor explained", () => {
    const { file, entries } = explanations(allButZero.replace("fractional, ", ""));
    expect(judge(table(), file, entries).diagnostics.map((problem) => problem.message)).toEqual([
      "boundary cell g.n fractional is neither covered by a scenario nor explained",
    ]);
  });

  it("names the file and line of a stale explanation: a covered cell, a field that is gone, a class the type does not admit", () => {
    const text = `${allButZero}  - fields: [g.n]
    classes: [zero]
    kind: not-yet-covered
    reason: was written before the scenario came
  - fields: [g.gone]
    classes: [zero]
    kind: no-meaning
    reason: the field was removed since
  - fields: [g.n]
    classes: [empty]
    kind: no-meaning
    reason: an integer has no empty value
`;
    const { file, entries } = explanations(text);
    const problems = judge(table(), file, entries).diagnostics.map((problem) => `${problem.file}:${problem.line}: ${problem.message}`);
    expect(problems).toEqual([
      "SPEC-BOUNDARIES.yaml:6: stale explanation: g.n zero is covered now, by t/zero",
      'SPEC-BOUNDARIES.yaml:10: stale explanation: there is no input field "g.gone"',
      'SPEC-BOUNDARIES.yaml:15: g.n admits no "empty" value (its type admits: absent, null, zero, negative, fractional, above-default, wrong-type)',
    ]);
  });

  it("refuses a cell explained twice", () => {
    const { file, entries } = explanations(`${allButZero}  - fields: [g.n]
    classes: [wrong-type]
    kind: no-meaning
    reason: the same cell once more
`);
    expect(judge(table(), file, entries).diagnostics.map((problem) => `${problem.line}: ${problem.message}`)).toEqual([
      "7: g.n wrong-type is already explained at line 2",
    ]);
  });
});
