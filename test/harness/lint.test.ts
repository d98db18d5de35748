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
