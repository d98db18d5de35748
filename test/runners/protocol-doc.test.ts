// runners/PROTOCOL.md is what runner authors read; the schemas are what the harness checks. This keeps
// them saying the same: the version, the operations (inputs and outputs alike), the capabilities and
// the error kinds.
import { readFile } from "node:fs/promises";
import { createRequire } from "node:module";
import { describe, expect, it } from "vitest";
import {
  inputValidator,
  knownCapabilities,
  operationCapabilities,
  operationNames,
  outputProblem,
  protocolVersion,
} from "../../runners/protocol/protocol.ts";
import { compileSchema } from "../../runners/protocol/json-schema.ts";

const require = createRequire(import.meta.url);
const protocolSchema = require("../../runners/protocol/protocol.schema.json");
const outputsSchema = require("../../runners/protocol/outputs.schema.json");
const doc = await readFile(new URL("../../runners/PROTOCOL.md", import.meta.url), "utf8");

/** The text of a `## title` section, up to the next `## `. */
function section(title: string): string {
  const start = doc.indexOf(`\n## ${title}\n`);
  expect(start, `runners/PROTOCOL.md has no "## ${title}" section`).toBeGreaterThan(-1);
  const end = doc.indexOf("\n## ", start + 1);
  return doc.slice(start, end === -1 ? undefined : end);
}

const sorted = (values: Iterable<string>) => [...new Set(values)].sort();

describe("runners/PROTOCOL.md", () => {
  it("has each x-capability of operations.schema.json name a capability, and says so under Capabilities", () => {
    expect(operationCapabilities.length).toBeGreaterThan(0);
    expect(operationCapabilities.filter((capability) => !knownCapabilities.includes(capability))).toEqual([]);
    expect(section("Capabilities")).toContain("`x-capability`");
  });

  it("states the schema's protocol version", () => {
    expect(/^# The runner protocol \(version (\d+)\)$/m.exec(doc)?.[1]).toBe(String(protocolVersion));
    expect(section("Versions")).toContain(`- **${protocolVersion}**:`);
  });

  it("documents exactly the operations the schemas define, inputs and outputs alike", () => {
    const documented = [...section("Operations").matchAll(/^### ([a-z]+\.[a-z.-]+)/gm)].map((match) => match[1]);
    const outputs = Object.keys(outputsSchema.$defs).filter((name) => name.includes("."));
    expect(sorted(outputs), "outputs.schema.json and operations.schema.json name different operations").toEqual(sorted(operationNames));
    expect(sorted(documented)).toEqual(sorted(operationNames));
  });

  it("lists exactly the capabilities the schema defines", () => {
    const text = section("Capabilities")
      .split("\n")
      .filter((line) => line.startsWith("`"))
      .join("\n");
    const listed = [...text.matchAll(/`([a-z]+\.[a-z-]+)`/g)].map((match) => match[1]);
    expect(sorted(listed)).toEqual(sorted(protocolSchema.$defs.capability.enum));
  });

  it("tables exactly the error kinds the schema defines", () => {
    const rows = [...section("Error kinds").matchAll(/^\| `([a-z_]+)` \|/gm)].map((match) => match[1]);
    expect(sorted(rows)).toEqual(sorted(protocolSchema.$defs.errorKind.enum));
  });

  describe("Writing a runner: its transcript of a real exchange", () => {
    const block = /\n### A real exchange\n[\s\S]*?\n```text\n([\s\S]*?)\n```/.exec(section("Writing a runner"))?.[1] ?? "";
    const lines = block
      .split("\n")
      .map((line, index) => ({ line: index + 1, direction: line.slice(0, 2), message: JSON.parse(line.slice(2)) as Record<string, any> }));
    const messages = (...names: string[]) =>
      compileSchema({ oneOf: names.map((name) => ({ $ref: `${protocolSchema.$id}#/$defs/${name}` })) }, protocolSchema);
    const fromHarness = messages("helloRequest", "request");
    const fromRunner = messages("helloAnswer", "result", "error", "crash");
    const said = (errors: { instancePath: string; message?: string }[] | null | undefined) =>
      [...new Set((errors ?? []).map((error) => `${error.instancePath || "(top level)"} ${error.message}`))].join("; ");

    it("is there, alternating harness (>) and runner (<) lines, a hello first", () => {
      expect(lines.length, 'no ```text block of "> " / "< " lines under "### A real exchange"').toBeGreaterThan(0);
      expect(lines.map(({ direction }) => direction)).toEqual(lines.map((_, index) => (index % 2 ? "< " : "> ")));
      expect(lines[0].message.type).toBe("hello");
    });

    it("has every line fit protocol.schema.json, every input its op's schema, every value its op's output", () => {
      const problems = lines.flatMap(({ line, direction, message }) => {
        const validate = direction === "> " ? fromHarness : fromRunner;
        return validate(message) ? [] : [`transcript line ${line}: ${said(validate.errors)}`];
      });
      lines.forEach(({ line, message }, index) => {
        if (message.type !== "request") return;
        const input = inputValidator(message.op);
        if (input && !input(message.input)) problems.push(`transcript line ${line}: ${message.op}'s input: ${said(input.errors)}`);
        const answer = lines[index + 1]?.message;
        if (answer?.seq !== message.seq) problems.push(`transcript line ${line + 1}: answers seq ${answer?.seq}, not ${message.seq}`);
        const wrong = answer?.type === "result" ? outputProblem(message.op, answer.value) : undefined;
        if (wrong) problems.push(`transcript line ${line + 1}: ${message.op}'s value ${wrong}`);
      });
      expect(problems, problems.join("\n")).toEqual([]);
    });

    it("shows what the section promises: client.create, client.run, session.reset, an error and an unsupported op", () => {
      const ops = lines.filter(({ message }) => message.type === "request").map(({ message }) => message.op);
      expect(ops).toEqual(expect.arrayContaining(["client.create", "client.run", "session.reset"]));
      const kinds = lines.filter(({ message }) => message.type === "error").map(({ message }) => message.error.kind);
      expect(kinds).toContain("unsupported");
      expect(kinds.filter((kind) => kind !== "unsupported").length).toBeGreaterThan(0);
    });
  });
});
