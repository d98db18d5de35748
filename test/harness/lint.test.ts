// Every kind of bad scenario input is reported at file:line with what would fix it.
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { lintPaths } from "../../conformance/scenario/lint.ts";

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), "tnc-lint-"));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

const good = `id: t.good
title: a good scenario
spec: [core.unknown-tool]
steps:
  - op: toolkit.create
    with: {handle: tk}
`;

async function lintText(name: string, text: string, ...others: [string, string][]) {
  await writeFile(join(dir, name), text);
  for (const [otherName, otherText] of others) await writeFile(join(dir, otherName), otherText);
  const result = await lintPaths([join(dir, name), ...others.map(([otherName]) => join(dir, otherName))]);
  return result.diagnostics.map((d) => ({ ...d, file: d.file.split("/").pop() }));
}

describe("lint", () => {
  it("accepts a good scenario and counts its clause in the coverage", async () => {
    await writeFile(join(dir, "good.yaml"), good);
    const result = await lintPaths([join(dir, "good.yaml")]);
    expect(result.diagnostics).toEqual([]);
    expect(result.coverage.get("core.unknown-tool")).toEqual(["t.good"]);
    expect(result.coverage.get("client.body.openai")).toEqual([]);
  });

  it("a YAML syntax error: file, line and column", async () => {
    const [problem] = await lintText("syntax.yaml", "id: t.x\ntitle: [unclosed\nspec: []\n");
    expect(problem).toMatchObject({ file: "syntax.yaml", line: 3 });
    expect(problem.message).toMatch(/^YAML: /);
  });

  it("a schema violation: the key, its line, and what is allowed", async () => {
    const problems = await lintText("schema.yaml", good.replace("steps:", "colour: red\nsteps:"));
    expect(problems).toEqual([
      expect.objectContaining({ file: "schema.yaml", line: 4, column: 1, message: '(top level): unknown key "colour"', hint: expect.stringContaining("expected one of: id, title") }),
    ]);
  });

  it("a step input that does not fit the operation, at the step's line", async () => {
    const problems = await lintText("input.yaml", good.replace("with: {handle: tk}", "with: {hndle: tk}"));
    expect(problems.map((p) => [p.line, p.message]).sort()).toEqual([
      [6, '/steps/0/with: missing key "handle"'],
      [6, '/steps/0/with: unknown key "hndle"'],
    ]);
  });

  it("an unknown operation, with the list of known ones", async () => {
    const [problem] = await lintText("op.yaml", good.replace("toolkit.create", "toolkit.creat"));
    expect(problem).toMatchObject({ line: 5, message: 'unknown operation "toolkit.creat"' });
    expect(problem.hint).toContain("toolkit.create");
  });

  it("an unknown fixture kind and an undeclared fixture", async () => {
    const text = good.replace("steps:", "fixtures: {srv: {kind: mcp-nonesuch}}\nsteps:\n  - fixture: other\n    action: script");
    const problems = await lintText("fixture.yaml", text);
    expect(problems.map((p) => p.message)).toEqual(['unknown fixture kind "mcp-nonesuch"', 'fixture "other" is not declared']);
    expect(problems[0].line).toBe(4);
  });

  it("a clause id SPEC.md does not define, with a suggestion", async () => {
    const [problem] = await lintText("clause.yaml", good.replace("core.unknown-tool", "core.unknown-tools"));
    expect(problem).toMatchObject({ line: 3, message: 'clause "core.unknown-tools" is not defined in SPEC.md', hint: 'did you mean "core.unknown-tool"?' });
  });

  it("an unknown capability", async () => {
    const [problem] = await lintText("capability.yaml", good.replace("steps:", "requires: [mcp.see]\nsteps:"));
    expect(problem).toMatchObject({ line: 4, message: 'unknown capability "mcp.see"', hint: 'did you mean "mcp.sse"?' });
  });

  it("an operation behind a capability the scenario does not require", async () => {
    const text = `${good}  - op: mcp.parse\n    with: {config: {}}\n`;
    const [problem] = await lintText("parse.yaml", text);
    expect(problem).toMatchObject({ line: 7, message: 'operation mcp.parse needs capability "mcp.parse", which this scenario does not require' });
    expect(await lintText("parse-ok.yaml", text.replace("steps:", "requires: [mcp.parse]\nsteps:"))).toEqual([]);
  });

  it("a variable used before it is captured", async () => {
    const text = `${good}  - op: toolkit.execute\n    with: {toolkit: "\${tk}", name: x}\n    capture: {tk: /value}\n`;
    const [problem] = await lintText("capture.yaml", text);
    expect(problem).toMatchObject({ line: 8, message: "${tk} is used before it is set" });
  });

  it("a duplicate id, naming where it was first defined", async () => {
    const problems = await lintText("dup-b.yaml", good, ["dup-a.yaml", good]);
    expect(problems).toHaveLength(1);
    expect(problems[0].message).toMatch(/duplicate scenario id "t.good", first defined at .*dup-a.yaml:1/);
  });
});

describe("lint of fixtures, when and expectations", () => {
  const llm = `id: t.llm
title: t
spec: [client.body.openai]
matrix: [openai-run, anthropic-run]
fixtures:
  llm: {kind: llm-mock}
steps:
  - fixture: llm
    action: script
    with: [{text: ok}]
  - op: client.create
    with: {handle: c, style: "\${path.style}", baseUrl: "\${llm.baseUrl}", model: m}
    expect:
      - {at: /value, equals: {}, when: {path.style: openai}}
`;

  it("the good version is clean", async () => {
    expect(await lintText("llm-good.yaml", llm)).toEqual([]);
  });

  it("an unknown fixture option, at the option", async () => {
    const [problem] = await lintText("llm-option.yaml", llm.replace("{kind: llm-mock}", "{kind: llm-mock, options: {interceptt: true}}"));
    expect(problem).toMatchObject({ line: 6, message: '/fixtures/llm/options: unknown key "interceptt"', hint: "expected one of: intercept" });
  });

  it("a bad fixture action input, at the reply", async () => {
    const [problem] = await lintText("llm-action.yaml", llm.replace("[{text: ok}]", "[{text: ok}, {txt: typo}]"));
    expect(problem.line).toBe(10);
    expect(problem.message).toContain('reply 1: unknown key "txt"');
  });

  it("a `when` that matches no path, or that has no matrix, or has an unknown key", async () => {
    const never = await lintText("when-never.yaml", llm.replace("when: {path.style: openai}", "when: {path.id: openai-stream}"));
    expect(never.map((p) => p.message)).toEqual(["this `when` matches none of the scenario's paths (openai-run, anthropic-run), so what it guards never runs"]);
    const noMatrix = await lintText("when-nomatrix.yaml", llm.replace("matrix: [openai-run, anthropic-run]\n", "").replace(/\$\{path\.style\}/, "openai"));
    expect(noMatrix.map((p) => p.message)).toEqual(["`when` only applies to a scenario with a matrix"]);
    const typo = await lintText("when-typo.yaml", llm.replace("path.style: openai", "path.styel: openai"));
    expect(typo[0].message).toContain('unknown key "path.styel"');
  });

  it("an assertion on a fixture that observes nothing", async () => {
    const text = `id: t.unreachable\ntitle: t\nspec: [mcp.connect.isolation]\nfixtures: {bad: {kind: mcp-unreachable}}\nsteps:\n  - op: mcp.list\n    with: {config: {bad: "\${bad.server}"}}\n    expect:\n      - {fixture: bad, at: /connections/open, equals: 0}\n`;
    const [problem] = await lintText("unreachable.yaml", text);
    expect(problem).toMatchObject({ line: 9, message: 'fixture kind "mcp-unreachable" observes nothing: an assertion on its snapshot could never fail' });
  });

  it("a variable inside an expected value", async () => {
    const [problem] = await lintText("expect-var.yaml", llm.replace("equals: {}", 'equals: "${llm.url}"'));
    expect(problem.message).toContain("is not substituted in expectations");
  });
});
