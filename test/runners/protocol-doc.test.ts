// runners/PROTOCOL.md is what runner authors read; the schemas are what the harness checks. This keeps
// them saying the same: the version, the operations (inputs and outputs alike), the capabilities and
// the error kinds.
import { readFile } from "node:fs/promises";
import { createRequire } from "node:module";
import { describe, expect, it } from "vitest";
import { knownCapabilities, operationCapabilities, operationNames, protocolVersion } from "../../conformance/schema/protocol.ts";

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
    const text = section("Capabilities").split("\n").filter((line) => line.startsWith("`")).join("\n");
    const listed = [...text.matchAll(/`([a-z]+\.[a-z-]+)`/g)].map((match) => match[1]);
    expect(sorted(listed)).toEqual(sorted(protocolSchema.$defs.capability.enum));
  });

  it("tables exactly the error kinds the schema defines", () => {
    const rows = [...section("Error kinds").matchAll(/^\| `([a-z_]+)` \|/gm)].map((match) => match[1]);
    expect(sorted(rows)).toEqual(sorted(protocolSchema.$defs.errorKind.enum));
  });
});
