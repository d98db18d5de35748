// `conformance obtainable` as CI's job uses it: read a decision (--from), print on stdout the subjects
// to require here, say on stderr which are excused and why, exit 1 when a client hung, 2 on a bad file.
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import type { Obtainability } from "../../../conformance/schema/obtainability.types.ts";
import { runCli } from "../helpers.ts";

const dir = mkdtempSync(join(tmpdir(), "tnc-obtainable-cli-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const found = (tool: string) => ({ tool, found: true, version: `${tool} 1.0` });
const decision: Obtainability = {
  decidedAt: "2026-12-04T00:00:00.000Z",
  runners: [
    {
      name: "python",
      package: "toolnexus==0.21.0",
      toolchains: [found("python3")],
      port: { answer: "unreachable", words: "pip: Connection refused" },
    },
    { name: "rust", package: "toolnexus@0.23.0", toolchains: [found("cargo")], port: { answer: "refused", words: "no matching package" } },
    { name: "go", package: "golang@v0.16.0", toolchains: [{ tool: "go", found: false }], port: { answer: "no-toolchain" } },
    {
      name: "java",
      package: "toolnexus:0.16.0",
      toolchains: [found("mvn")],
      port: { answer: "hung", words: "(no answer within 60000 ms)" },
    },
  ],
};

function decisionFile(name: string, content: unknown): string {
  const file = join(dir, name);
  writeFileSync(file, typeof content === "string" ? content : JSON.stringify(content));
  return file;
}

describe("conformance obtainable", () => {
  it("prints the subjects to require here; excuses the unreachable and the toolless with their reasons", async () => {
    const file = decisionFile("some.json", decision);
    const { code, stdout, stderr } = await runCli(["obtainable", "--from", file, "python", "python@source", "rust", "go@source"]);
    expect(code, stderr).toBe(0);
    expect(stdout).toBe("rust\n");
    expect(stderr).toContain("not required here: python: its package client could not reach its registry: pip: Connection refused");
    expect(stderr).toContain("not required here: python@source: its package client could not reach its registry: pip: Connection refused");
    expect(stderr).toContain("not required here: go@source: go not on PATH");
    expect(stderr).toMatch(
      /rust +REFUSED +cargo \(cargo 1\.0\); its registry answered and refused toolnexus@0\.23\.0: no matching package/,
    );
  });

  it("exits 1 when a subject's client hung: nothing said no, so it is not excused", async () => {
    const file = decisionFile("hung.json", decision);
    const { code, stdout, stderr } = await runCli(["obtainable", "--from", file, "rust", "java"]);
    expect(code).toBe(1);
    expect(stdout).toBe("rust\n");
    expect(stderr).toContain("UNDECIDED java: its package client did not answer: (no answer within 60000 ms)");
  });

  it("a decision file that is not one: exit 2, naming the file and what is wrong", async () => {
    const cut = decisionFile("cut.json", '{"decidedAt": "x", "runn');
    const foreign = decisionFile("foreign.json", { decidedAt: "x", runners: [{ name: "python" }] });
    const [cutShort, notOne] = await Promise.all([runCli(["obtainable", "--from", cut]), runCli(["obtainable", "--from", foreign])]);
    expect(cutShort.code).toBe(2);
    expect(cutShort.stderr).toContain(`${cut}: not a readable JSON decision`);
    expect(notOne.code).toBe(2);
    expect(notOne.stderr).toContain(
      `${foreign}: not an obtainability decision (conformance/schema/obtainability.schema.json): /runners/0 must have required property`,
    );
  });
});
