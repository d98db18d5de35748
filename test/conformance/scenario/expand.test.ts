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
