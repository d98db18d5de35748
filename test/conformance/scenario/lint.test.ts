// Every kind of bad scenario input is reported at file:line with what would fix it.
import { toolnexusSuite } from "../../../conformance/suite/toolnexus.ts";
import { mkdir, mkdtemp, rm, utimes, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runCli } from "../helpers.ts";
import { lintPaths } from "../../../conformance/scenario/lint.ts";

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), "tnc-lint-"));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

const good = `id: good
title: a good scenario
spec: [core.unknown-tool]
steps:
  - op: toolkit.create
    with: {handle: tk}
`;

/** Ids are file paths: a test about something else gives each file the id its name asks for. */
const withPathId = (name: string, text: string) => text.replace(/^id: .*$/m, `id: ${name.replace(/\.ya?ml$/, "")}`);

async function lintText(name: string, text: string, ...others: [string, string][]) {
  await writeFile(join(dir, name), withPathId(name, text));
  for (const [otherName, otherText] of others) await writeFile(join(dir, otherName), withPathId(otherName, otherText));
  const result = await lintPaths([join(dir, name), ...others.map(([otherName]) => join(dir, otherName))], toolnexusSuite);
  return result.diagnostics.map((d) => ({ ...d, file: d.file.split("/").pop() }));
}

describe("lint", () => {
  it("accepts a good scenario and counts its clause in the coverage", async () => {
    await writeFile(join(dir, "good.yaml"), good);
    const result = await lintPaths([join(dir, "good.yaml")], toolnexusSuite);
    expect(result.diagnostics).toEqual([]);
    expect(result.coverage.get("core.unknown-tool")).toEqual(["good"]);
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
      expect.objectContaining({
        file: "schema.yaml",
        line: 4,
        column: 1,
        message: '(top level): unknown key "colour"',
        hint: expect.stringContaining("expected one of: id, title"),
      }),
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
    expect(problem).toMatchObject({
      line: 3,
      message: 'clause "core.unknown-tools" is not defined in SPEC.md',
      hint: 'did you mean "core.unknown-tool"?',
    });
  });

  it("an unknown capability", async () => {
    const [problem] = await lintText("capability.yaml", good.replace("steps:", "requires: [mcp.see]\nsteps:"));
    expect(problem).toMatchObject({ line: 4, message: 'unknown capability "mcp.see"', hint: 'did you mean "mcp.sse"?' });
  });

  it("an operation behind a capability the scenario does not require", async () => {
    const text = `${good}  - op: mcp.parse\n    with: {config: {}}\n`;
    const [problem] = await lintText("parse.yaml", text);
    expect(problem).toMatchObject({
      line: 7,
      message: 'operation mcp.parse needs capability "mcp.parse", which this scenario does not require',
    });
    expect(await lintText("parse-ok.yaml", text.replace("steps:", "requires: [mcp.parse]\nsteps:"))).toEqual([]);
  });

  it("client.stream with history, directly or through a matrix, needs client.stream-history", async () => {
    const text = `${good}  - op: client.stream\n    with: {client: c, prompt: hi, history: []}\n`;
    const [problem] = await lintText("stream-history.yaml", text);
    expect(problem).toMatchObject({
      line: 8,
      message: 'history on client.stream needs capability "client.stream-history", which this scenario does not require',
    });
    expect(await lintText("stream-history-ok.yaml", text.replace("steps:", "requires: [client.stream-history]\nsteps:"))).toEqual([]);
    const matrix = `${good.replace("steps:", "matrix: [openai-run, openai-stream]\nsteps:")}  - op: "\${path.op}"\n    with: {client: c, prompt: hi, history: []}\n`;
    expect((await lintText("matrix-history.yaml", matrix)).map((found) => found.message)).toContain(
      'history on client.stream needs capability "client.stream-history", which this scenario does not require',
    );
    const runOnly = matrix.replace("[openai-run, openai-stream]", "[openai-run]");
    expect(await lintText("run-history.yaml", runOnly)).toEqual([]);
  });

  it("abortAfterMs on a client call, directly or through a matrix, needs client.cancel (operations.schema.json x-capability)", async () => {
    const text = `${good}  - op: client.ask\n    with: {client: c, prompt: hi, id: a, abortAfterMs: 5}\n`;
    const [problem] = await lintText("cancel.yaml", text);
    expect(problem).toMatchObject({
      line: 8,
      message: 'abortAfterMs on client.ask needs capability "client.cancel", which this scenario does not require',
      hint: "add client.cancel to requires: (a port without client.cancel is then skipped, not failed)",
    });
    expect(await lintText("cancel-ok.yaml", text.replace("steps:", "requires: [client.cancel]\nsteps:"))).toEqual([]);
    const matrix = `${good.replace("steps:", "matrix: client-paths\nsteps:")}  - op: "\${path.op}"\n    with: {client: c, prompt: hi, abortAfterMs: 5}\n`;
    expect((await lintText("matrix-cancel.yaml", matrix)).map((found) => found.message)).toEqual([
      'abortAfterMs on ${path.op} needs capability "client.cancel", which this scenario does not require',
    ]);
    // toolkit.create's abortAfterMs (an MCP connect's) is not annotated: no capability asked for.
    expect(await lintText("toolkit-abort.yaml", good.replace("with: {handle: tk}", "with: {handle: tk, abortAfterMs: 5}"))).toEqual([]);
  });

  it("a key behind a capability at any depth (a list item's, a nested object's) needs it, at that key's line", async () => {
    const request = "{id: r1, kind: input, prompt: p}";
    const text = `${good.replace("with: {handle: tk}", "with:\n      handle: tk\n      extraTools:\n        - name: a\n        - name: b\n          suspend: [{request: " + request + "}]")}  - op: client.create\n    with:\n      handle: c\n      style: openai\n      baseUrl: u\n      model: m\n      hooks: {beforeTool: {result: {output: o, isError: true, pending: ${request}}}}\n`;
    const problems = await lintText("nested.yaml", text);
    expect(problems).toMatchObject([
      {
        line: 11,
        message: 'extraTools[1].suspend on toolkit.create needs capability "client.suspension", which this scenario does not require',
        hint: "add client.suspension to requires: (a port without client.suspension is then skipped, not failed)",
      },
      {
        line: 18,
        message:
          'hooks.beforeTool.result.pending on client.create needs capability "client.suspension", which this scenario does not require',
      },
    ]);
    expect(await lintText("nested-ok.yaml", text.replace("steps:", "requires: [client.suspension]\nsteps:"))).toEqual([]);
    // The same keys' siblings carry no capability: nothing asked for.
    expect(
      await lintText("nested-plain.yaml", good.replace("with: {handle: tk}", "with: {handle: tk, extraTools: [{name: a, throws: x}]}")),
    ).toEqual([]);
  });

  it("a nested input key behind a capability (hooks.afterLLM) needs it, at the nested key's line", async () => {
    const create = "  - op: client.create\n    with:\n      handle: c\n      style: openai\n      baseUrl: http://h/v1\n      model: m\n";
    const text = `${good}${create}      hooks:\n        beforeLLM: {}\n        afterLLM: {}\n`;
    const [problem, ...others] = await lintText("after-llm.yaml", text);
    expect(others).toEqual([]);
    expect(problem).toMatchObject({
      line: 15,
      message: 'hooks.afterLLM on client.create needs capability "client.hooks-after", which this scenario does not require',
    });
    expect(await lintText("after-llm-ok.yaml", text.replace("steps:", "requires: [client.hooks-after]\nsteps:"))).toEqual([]);
    // A sibling without x-capability (beforeLLM) asks for nothing.
    expect(await lintText("before-llm.yaml", `${good}${create}      hooks: {beforeLLM: {}}\n`)).toEqual([]);
  });

  it("a variable used before it is captured", async () => {
    const text = `${good}  - op: toolkit.execute\n    with: {toolkit: "\${tk}", name: x}\n    capture: {tk: /value}\n`;
    const [problem] = await lintText("capture.yaml", text);
    expect(problem).toMatchObject({ line: 8, message: "${tk} is used before it is set" });
  });

  it("an independent step that reads a variable an earlier step captures, at the line that reads it", async () => {
    const text = `${good}    capture: {tk: /value}\n  - op: toolkit.execute\n    independent: true\n    with: {toolkit: t, name: "\${tk}"}\n    expect:\n      - {var: tk, at: "", present: true}\n`;
    const problems = await lintText("independent.yaml", text);
    expect(problems.map((problem) => [problem.file, problem.line, problem.message])).toEqual([
      ["independent.yaml", 10, "step 2 is marked independent but reads ${tk}, which step 1 captures: it builds on that step's result"],
      ["independent.yaml", 12, "step 2 is marked independent but reads var tk, which step 1 captures: it builds on that step's result"],
    ]);
    expect(problems[0].hint).toBe("remove `independent: true`, or write the value itself");
  });

  it("an independent step may read a fixture's values, the path variables and what it captures itself", async () => {
    const text = `id: t\ntitle: t\nspec: [core.unknown-tool]\nmatrix: [openai-run]\nfixtures: {srv: {kind: mcp-abc}}\nsteps:\n  - op: toolkit.create\n    with: {handle: tk}\n  - op: toolkit.execute\n    independent: true\n    with: {toolkit: tk, name: "\${path.style}", args: {x: "\${srv.command}"}}\n    capture: {own: /value}\n    expect:\n      - {var: own, at: "", present: true}\n`;
    expect(await lintText("independent-ok.yaml", text)).toEqual([]);
  });

  it("an id that is not the file's path, at the id's line, with the id to write", async () => {
    await writeFile(join(dir, "named.yaml"), good);
    const result = await lintPaths([join(dir, "named.yaml")], toolnexusSuite);
    expect(result.diagnostics).toHaveLength(1);
    expect(result.diagnostics[0]).toMatchObject({ line: 1, column: 5 });
    expect(result.diagnostics[0].message).toBe(
      `id "good" is not this file's path: a scenario's id is its path under the scenarios folder, without .yaml`,
    );
    expect(result.diagnostics[0].hint).toMatch(/^write id: named \(with the folders above it/);
  });

  it("an id may name the folders above the file, as far up as the scenarios folder", async () => {
    await mkdir(join(dir, "family/sub"), { recursive: true });
    await writeFile(join(dir, "family/sub/case.yaml"), good.replace("id: good", "id: family/sub/case"));
    await writeFile(join(dir, "family/sub/other.yaml"), good.replace("id: good", "id: sub/other"));
    await writeFile(join(dir, "family/sub/wrong.yaml"), good.replace("id: good", "id: family/wrong"));
    const result = await lintPaths([join(dir, "family")], toolnexusSuite);
    expect(result.diagnostics.map((d) => `${d.file.split("/").pop()}: ${d.message.slice(0, 14)}`)).toEqual(['wrong.yaml: id "family/wro']);
  });

  it("a duplicate id (two scenario folders linted together) blames the newer file, naming the other with its line", async () => {
    await mkdir(join(dir, "one/t"), { recursive: true });
    await mkdir(join(dir, "two/t"), { recursive: true });
    const text = good.replace("id: good", "id: t/dup");
    await writeFile(join(dir, "one/t/dup.yaml"), text);
    await writeFile(join(dir, "two/t/dup.yaml"), `# a copy\n${text}`);
    const old = new Date(Date.now() - 3_600_000);
    await utimes(join(dir, "two/t/dup.yaml"), old, old);
    const result = await lintPaths([join(dir, "one"), join(dir, "two")], toolnexusSuite);
    expect(result.diagnostics).toHaveLength(1);
    expect(result.diagnostics[0]).toMatchObject({ line: 1 });
    expect(result.diagnostics[0].file).toMatch(/one\/t\/dup\.yaml$/);
    expect(result.diagnostics[0].message).toMatch(/^duplicate scenario id "t\/dup": also the id of .*two\/t\/dup\.yaml:2$/);
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
    expect(problem).toMatchObject({
      line: 6,
      message: '/fixtures/llm/options: unknown key "interceptt"',
      hint: "expected one of: intercept",
    });
  });

  it("a bad fixture action input, at the reply", async () => {
    const [problem] = await lintText("llm-action.yaml", llm.replace("[{text: ok}]", "[{text: ok}, {txt: typo}]"));
    expect(problem.line).toBe(10);
    expect(problem.message).toContain('reply 1: unknown key "txt"');
  });

  it("a `when` that matches no path, or that has no matrix, or has an unknown key", async () => {
    const never = await lintText("when-never.yaml", llm.replace("when: {path.style: openai}", "when: {path.id: openai-stream}"));
    expect(never.map((p) => p.message)).toEqual([
      "this `when` matches none of the scenario's paths (openai-run, anthropic-run), so what it guards never runs",
    ]);
    const noMatrix = await lintText(
      "when-nomatrix.yaml",
      llm.replace("matrix: [openai-run, anthropic-run]\n", "").replace(/\$\{path\.style\}/, "openai"),
    );
    expect(noMatrix.map((p) => p.message)).toEqual(["`when` only applies to a scenario with a matrix"]);
    const typo = await lintText("when-typo.yaml", llm.replace("path.style: openai", "path.styel: openai"));
    expect(typo[0].message).toContain('unknown key "path.styel"');
  });

  it("a matrix or a path the suite does not define, named at the matrix with the suite's names (the format names none)", async () => {
    const name = await lintText("matrix-name.yaml", llm.replace("matrix: [openai-run, anthropic-run]", "matrix: client-path"));
    expect(name.map((p) => [p.line, p.message, p.hint])).toEqual([
      [4, 'unknown matrix "client-path" (the suite\'s: client-paths)', 'did you mean "client-paths"?'],
    ]);
    const path = await lintText("matrix-path.yaml", llm.replace("[openai-run, anthropic-run]", "[openai-run, anthropic-runn]"));
    expect(path.map((p) => p.message)).toEqual([
      'unknown path "anthropic-runn" (the suite\'s: openai-run, openai-stream, anthropic-run, anthropic-stream)',
    ]);
  });

  it("an assertion on a fixture that observes nothing", async () => {
    const text =
      `id: t.unreachable\ntitle: t\nspec: [mcp.connect.isolation]\nfixtures: {bad: {kind: mcp-unreachable}}\n` +
      `steps:\n  - op: mcp.list\n    with: {config: {bad: "\${bad.server}"}}\n    expect:\n      - {fixture: bad, at: /connections/open, equals: 0}\n`;
    const [problem] = await lintText("unreachable.yaml", text);
    expect(problem).toMatchObject({
      line: 9,
      message: 'fixture kind "mcp-unreachable" observes nothing: an assertion on its snapshot could never fail',
    });
  });

  it("a variable inside an expected value", async () => {
    const [problem] = await lintText("expect-var.yaml", llm.replace("equals: {}", 'equals: "${llm.url}"'));
    expect(problem.message).toContain("is not substituted in expectations");
  });
});

describe("lint of matchers against what they are applied to", () => {
  const scenario = (expect: string, extra = "") => `id: t.matchers
title: t
spec: [core.unknown-tool]
fixtures: {srv: {kind: mcp-abc, options: {transport: http}}}
steps:
  - op: toolkit.create
    with: {handle: tk, mcpConfig: "\${srv.config}"}
    capture: {tools: /value/tools}
    expect:
${expect
  .trim()
  .split("\n")
  .map((line) => `      ${line}`)
  .join("\n")}
${extra}`;
  const messages = async (expect: string) => (await lintText("matchers.yaml", scenario(expect))).map((p) => [p.line, p.message]);

  it("a matcher that can never hold on the type PROTOCOL.md or the fixture's snapshot declares there", async () => {
    expect(
      await messages(`
- {at: /value/tools, atLeast: 1}
- {at: /elapsedMs, length: 3}
- {at: /value/status, setEquals: [connected]}
- {fixture: srv, at: /requests, atMost: 2}
- {fixture: srv, at: /connections/open, matches: "^0$"}
- {var: tools, at: "", jsonEquals: []}
- {at: /error/message, orderedEquals: [a]}`),
    ).toEqual([
      [10, "`atLeast` compares a number, but /value/tools of the toolkit.create result is a list of strings"],
      [
        11,
        "`length` counts the elements of a list, the characters of a string or the keys of an object, but /elapsedMs of the toolkit.create result is a number",
      ],
      [12, "`setEquals` compares a list, but /value/status of the toolkit.create result is an object"],
      [13, "`atMost` compares a number, but /requests of the mcp-abc snapshot is a list of objects"],
      [14, "`matches` tests a string, but /connections/open of the mcp-abc snapshot is a number"],
      [15, '`jsonEquals` parses a string of JSON text, but (the whole value) of variable "tools" is a list of strings'],
      [16, "`orderedEquals` compares a list, but /error/message of the toolkit.create result is a string"],
    ]);
  });

  it("contains: a string finds a string element by substring, an object an object element by subset; the other way round never matches", async () => {
    const problems = await lintText(
      "contains.yaml",
      scenario(`
- {fixture: srv, at: /requests, contains: initialize}
- {at: /value/tools, notContains: {name: a}}
- {at: /error/message, contains: {kind: http}}
- {fixture: srv, at: /requests, contains: {method: initialize}}
- {at: /value/tools, contains: srv_a}`),
    );
    expect(problems.map((p) => [p.line, p.message])).toEqual([
      [10, '`contains: "initialize"` finds a string element by substring, but /requests of the mcp-abc snapshot is a list of objects'],
      [11, "`notContains: {...}` finds an object element by subset, but /value/tools of the toolkit.create result is a list of strings"],
      [12, "`contains: {...}` finds an element of a list, but /error/message of the toolkit.create result is a string"],
    ]);
    expect(problems[0].hint).toBe("give the keys an element must have, e.g. contains: {method: initialize}");
  });

  it("an invalid regular expression, and operands of the wrong type, say what is expected", async () => {
    const problems = await lintText(
      "operands.yaml",
      scenario(`
- {at: /value/tools/0, matches: "srv_(a"}
- {at: /value/tools, length: "3"}
- {at: /elapsedMs, atLeast: "1"}`),
    );
    expect(problems.map((p) => [p.line, p.message]).sort((a, b) => Number(a[0]) - Number(b[0]))).toEqual([
      [10, "`matches` is not a valid regular expression: Invalid regular expression: /srv_(a/: Unterminated group"],
      [11, '/steps/0/expect/1/length: must be integer, found "3" (a string)'],
      [12, '/steps/0/expect/2/atLeast: must be number, found "1" (a string)'],
    ]);
  });

  it("leaves to the run what no declaration types: a runner.echo value, a fixture step's target, a matrix op's own keys", async () => {
    const text = scenario(
      "- {at: /value/tools, length: 3}",
      "  - op: runner.echo\n    with: {value: 1}\n    expect:\n      - {at: /value/value/deep, atLeast: 1}\n      - {at: /value/value, contains: x}\n",
    );
    expect(await lintText("unknown.yaml", text)).toEqual([]);
  });
});

describe("lint reports schema problems and semantic problems in one pass", () => {
  it("checks the well-formed parts of a file the schema rejects", async () => {
    const text = `id: t.both
title: t
colour: red
spec: [core.unknown-tols]
steps:
  - op: toolkit.creat
    with: {handle: tk}
  - fixture: nowhere
  - op: toolkit.execute
    with: {toolkit: "\${tk}", name: x}
    expect:
      - {at: /value, equals: 1, bogus: 2}
      - {at: /value/output, atLeast: 1}
`;
    const problems = await lintText("both.yaml", text);
    expect(problems.map((p) => [p.line, p.message]).sort((a, b) => Number(a[0]) - Number(b[0]))).toEqual([
      [3, '(top level): unknown key "colour"'],
      [4, 'clause "core.unknown-tols" is not defined in SPEC.md'],
      [6, 'unknown operation "toolkit.creat"'],
      [8, '/steps/1: missing key "action"'],
      [10, "${tk} is used before it is set"],
      [12, '/steps/2/expect/0: unknown key "bogus"'],
      [13, "`atLeast` compares a number, but /value/output of the toolkit.execute result is a string"],
    ]);
  });

  it("does not crash on parts of the wrong shape, and reports only the schema's words for them", async () => {
    const text =
      "id: t.shapes\ntitle: t\nspec: core.unknown-tool\nfixtures: [1]\nmatrix: 5\nsteps:\n  - 3\n  - op: 4\n  - op: toolkit.create\n    with: [1]\n    capture: x\n    expect: {at: 1}\n";
    const problems = await lintText("shapes.yaml", text);
    expect(problems.length).toBeGreaterThan(0);
    expect(problems.every((p) => p.message.startsWith("/") || p.message.startsWith("(top level)"))).toBe(true);
  });

  it("a variable captured by a step with a schema problem is still known to later steps", async () => {
    const text = `${good}    captur: oops\n    capture: {tk: /value}\n  - op: toolkit.execute\n    with: {toolkit: "\${tk}", name: x}\n`;
    const problems = await lintText("capture-broken.yaml", text);
    expect(problems.map((p) => p.message)).toEqual(['/steps/0: unknown key "captur"']);
  });
});

describe("lint on the command line", () => {
  const lintCli = async (...args: string[]) => {
    const { code, stdout, stderr } = await runCli(["lint", ...args]);
    expect(code, stderr).toBe(0);
    return stdout;
  };

  it("shows the clause coverage table for the whole suite or with --coverage, not for the paths given", async () => {
    await writeFile(join(dir, "cli-good.yaml"), good.replace("id: good", "id: cli-good"));
    const paths = await lintCli(join(dir, "cli-good.yaml"));
    expect(paths).not.toContain("clauses covered");
    expect(paths).toContain("1 files, 1 valid scenarios");
    expect(await lintCli(join(dir, "cli-good.yaml"), "--coverage")).toMatch(/core\.unknown-tool\s+1\n[\s\S]*clauses covered/);
    const whole = await lintCli();
    expect(whole).toContain("clauses covered");
    // The whole suite's boundary table is gated too, and says so in one line.
    expect(whole).toMatch(/boundary table: \d+ fields, \d+ cells: .* 0 unexplained/);
  }, 60_000);
});
