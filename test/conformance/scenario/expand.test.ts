import { describe, expect, it } from "vitest";
import { expandYaml } from "../helpers.ts";

const matrixScenario = `
id: t.matrix
title: t
spec: [client.request-params.merge]
requires: [client.request-params]
matrix: client-paths
steps:
  - op: "\${path.op}"
    with: {client: c, prompt: hi}
    expect:
      - {at: /value/text, equals: ok}
      - {at: /value/x, absent: true, when: {path.style: anthropic}}
  - op: client.observations
    with: {client: c}
    when: {path.mode: [stream]}
`;

describe("matrix expansion", () => {
  it("expands over the four client paths with their own ids, variables and requirements", () => {
    const expanded = expandYaml(matrixScenario);
    expect(expanded.map((scenario) => scenario.id)).toEqual([
      "t.matrix[openai-run]",
      "t.matrix[openai-stream]",
      "t.matrix[anthropic-run]",
      "t.matrix[anthropic-stream]",
    ]);
    expect(expanded[3].pathVars).toEqual({
      "path.id": "anthropic-stream",
      "path.style": "anthropic",
      "path.mode": "stream",
      "path.op": "client.stream",
    });
    expect(expanded[3].requires).toEqual(["client.request-params", "style.anthropic", "client.stream"]);
  });

  it("keeps only the steps and assertions whose `when` matches", () => {
    const [openaiRun, , anthropicRun, anthropicStream] = expandYaml(matrixScenario);
    expect(openaiRun.steps.map((step) => step.index)).toEqual([0]);
    expect(openaiRun.steps[0].expect).toHaveLength(1);
    expect(anthropicRun.steps[0].expect).toHaveLength(2);
    expect(anthropicStream.steps.map((step) => step.index)).toEqual([0, 1]);
  });

  it("a list restricts the paths", () => {
    const expanded = expandYaml(matrixScenario.replace("matrix: client-paths", "matrix: [anthropic-run]"));
    expect(expanded.map((scenario) => scenario.id)).toEqual(["t.matrix[anthropic-run]"]);
  });
});

// Check ids (`<scenario>:<check-id>` in baselines) and console lines are built from what expansion
// gives each assertion: its position, its line in the file and its number among those sharing a target.
const positions = `id: t.positions
title: t
spec: [core.unknown-tool]
steps:
  - op: toolkit.create
    with: {handle: tk}
  - op: toolkit.execute
    with: {toolkit: tk, name: nope}
    expect:
      - {at: /value/isError, equals: true}
      - {at: /value/output, contains: Unknown}
      - {at: /value/isError, present: true}
      - {fixture: llm, at: /value/isError, present: true}
      - {var: x, at: /value/isError, present: true}
      - {fixture: llm, at: /value/isError, equals: 1}
`;

describe("assertion positions", () => {
  it("numbers the assertions sharing a target and pointer, and only those; each keeps its index and line", () => {
    const [scenario] = expandYaml(positions);
    expect(scenario.steps.map((step) => [step.index, step.line])).toEqual([
      [0, 5],
      [1, 7],
    ]);
    expect(scenario.steps[1].expect.map(({ index, line, occurrence }) => ({ index, line, occurrence }))).toEqual([
      { index: 0, line: 10, occurrence: 1 },
      { index: 1, line: 11, occurrence: undefined },
      { index: 2, line: 12, occurrence: 2 },
      { index: 3, line: 13, occurrence: 1 },
      { index: 4, line: 14, occurrence: undefined },
      { index: 5, line: 15, occurrence: 2 },
    ]);
    expect(scenario.steps[0].expect).toEqual([]);
  });

  it("two fixtures, or two variables, at one pointer are different targets; so is a variable named undefined", () => {
    const targets = positions.replace(
      / {4}expect:\n[\s\S]*$/,
      `    expect:
      - {fixture: llm, at: /n, present: true}
      - {fixture: other, at: /n, present: true}
      - {var: x, at: /n, present: true}
      - {var: y, at: /n, present: true}
      - {var: undefined, at: /value/n, present: true}
      - {at: /value/n, present: true}
`,
    );
    const [scenario] = expandYaml(targets);
    expect(scenario.steps[1].expect.map(({ occurrence }) => occurrence)).toEqual([
      undefined,
      undefined,
      undefined,
      undefined,
      undefined,
      undefined,
    ]);
  });

  it("takes the scenario's own fields, with the defaults where it gives none", () => {
    const [plain] = expandYaml(positions);
    expect(plain).toMatchObject({ id: "t.positions", baseId: "t.positions", title: "t", spec: ["core.unknown-tool"], tags: [] });
    expect(plain).toMatchObject({ requires: [], fixtures: {}, pathVars: {}, timeoutMs: 10_000 });
    const [tagged] = expandYaml(positions.replace("spec: [core.unknown-tool]", "spec: [core.unknown-tool]\ntags: [slow]\ntimeoutMs: 500"));
    expect(tagged).toMatchObject({ tags: ["slow"], timeoutMs: 500 });
  });
});

describe("when", () => {
  it("needs every variable it names to match, not one of them", () => {
    const both = matrixScenario.replace("when: {path.mode: [stream]}", "when: {path.mode: run, path.style: anthropic}");
    expect(expandYaml(both).map((scenario) => scenario.steps.map((step) => step.index))).toEqual([[0], [0], [0, 1], [0]]);
  });
});
