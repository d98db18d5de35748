// scripts/mutation-score.ts (the end of npm run mutate): the score per folder from a Stryker JSON report,
// equivalent entries matched by what they change, and a stale or malformed entry failing the script.
import { execFile } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { afterEach, describe, expect, it } from "vitest";
import { loadEquivalents, matchEquivalents } from "../../scripts/mutation/equivalents.ts";
import { readReport, scoreByFolder } from "../../scripts/mutation/report.ts";

const run = promisify(execFile);
let dir: string;
afterEach(() => rmSync(dir, { recursive: true, force: true }));

const source = "const a = 1;\nif (x > 0) go();\nif (y > 0) go();\n";
const at = (line: number, column: number, endColumn: number) => ({ start: { line, column }, end: { line, column: endColumn } });
function writeFixture(equivalents: string): { report: string; list: string } {
  dir = mkdtempSync(join(tmpdir(), "tnc-mutation-score-"));
  const report = join(dir, "mutation.json");
  const mutant = (id: string, mutatorName: string, replacement: string, status: string, location: ReturnType<typeof at>) => ({
    id,
    mutatorName,
    replacement,
    status,
    location,
  });
  writeFileSync(
    report,
    JSON.stringify({
      schemaVersion: "2",
      files: {
        "reference/client/a.ts": {
          language: "typescript",
          source,
          mutants: [
            mutant("1", "EqualityOperator", "x >= 0", "Survived", at(2, 5, 10)),
            mutant("2", "EqualityOperator", "y >= 0", "Survived", at(3, 5, 10)),
            mutant("3", "ConditionalExpression", "true", "Killed", at(2, 5, 10)),
            mutant("4", "ConditionalExpression", "false", "Timeout", at(3, 5, 10)),
            mutant("5", "BlockStatement", "{}", "CompileError", at(3, 5, 10)),
          ],
        },
        "reference/types.ts": {
          language: "typescript",
          source,
          mutants: [mutant("6", "NumericLiteral", "0", "NoCoverage", at(1, 11, 12))],
        },
      },
    }),
  );
  const list = join(dir, "equivalents.yaml");
  writeFileSync(list, equivalents);
  return { report, list };
}

const entry = `equivalents:
  - file: reference/client/a.ts
    mutator: EqualityOperator
    original: "x > 0"
    replacement: "x >= 0"
    reason: x is never 0 here
`;

describe("mutation score", () => {
  it("scores per folder, leaves equivalents and invalid mutants out, counts NoCoverage as undetected", () => {
    const { report, list } = writeFixture(entry);
    const mutants = readReport(report);
    const { equivalent, stale } = matchEquivalents(loadEquivalents(list), mutants, new Set(mutants.map((m) => m.file)));
    expect(stale).toEqual([]);
    expect([...equivalent]).toEqual(["1"]);
    const rows = scoreByFolder(mutants, equivalent);
    expect(rows.map(({ folder, detected, equivalent: eq, excluded, score }) => ({ folder, detected, eq, excluded, score }))).toEqual([
      { folder: "reference", detected: 0, eq: 0, excluded: 0, score: 0 },
      { folder: "reference/client", detected: 2, eq: 1, excluded: 1, score: 2 / 3 },
    ]);
    expect(rows[1].undetected.map((m) => `${m.line}:${m.original}`)).toEqual(["3:y > 0"]);
  });

  it("prints the survivors and exits 0; a stale entry exits 1 naming the list's line", async () => {
    let { report, list } = writeFixture(entry);
    const ok = await run("npx", ["tsx", "scripts/mutation-score.ts", report, list], { timeout: 60_000 });
    expect(ok.stdout).toContain('reference/client/a.ts:3:5 EqualityOperator Survived: "y > 0" -> "y >= 0"');
    expect(ok.stdout).toMatch(/reference\/client\s+5\s+2\s+1\s+1\s+1\s+66\.6%/);
    rmSync(dir, { recursive: true, force: true });
    ({ report, list } = writeFixture(entry.replace('original: "x > 0"', 'original: "x > 1"')));
    const failed = await run("npx", ["tsx", "scripts/mutation-score.ts", report, list], { timeout: 60_000 }).catch((error) => error);
    expect(failed.code).toBe(1);
    expect(failed.stderr).toContain(
      `${list}:2: stale: expected 1 mutant(s) of reference/client/a.ts (EqualityOperator "x > 1" -> "x >= 0"), found 0`,
    );
  });

  it("scores several reports as one: a file from the last report that has it, mutant ids kept apart", async () => {
    const { report, list } = writeFixture(entry);
    // A second run over another file, whose mutant ids restart at 1 (as Stryker numbers them per run).
    const other = join(dir, "other.json");
    const killed = { id: "1", mutatorName: "EqualityOperator", replacement: "x >= 0", status: "Killed", location: at(2, 5, 10) };
    writeFileSync(
      other,
      JSON.stringify({ schemaVersion: "2", files: { "reference/mcp/b.ts": { language: "typescript", source, mutants: [killed] } } }),
    );
    const { stdout } = await run("npx", ["tsx", "scripts/mutation-score.ts", report, other, report, list], { timeout: 60_000 });
    expect(stdout).toMatch(/reference\/client\s+5\s+2\s+1\s+1\s+1\s+66\.6%/);
    expect(stdout).toMatch(/reference\/mcp\s+1\s+1\s+0\s+0\s+0\s+100\.0%/);
  });

  it("an entry matching two mutants needs `line` or `matches`", () => {
    const { report, list } = writeFixture(`equivalents:
  - {file: reference/client/a.ts, mutator: ConditionalExpression, original: "y > 0", replacement: "false", reason: r}
  - {file: reference/client/a.ts, mutator: EqualityOperator, original: "y > 0", replacement: "y >= 0", line: "if (y", reason: r}
`);
    const mutants = readReport(report);
    const { equivalent, stale } = matchEquivalents(loadEquivalents(list), mutants, new Set(mutants.map((m) => m.file)));
    expect(stale).toEqual([]);
    expect([...equivalent].sort()).toEqual(["2", "4"]);
  });

  it("a malformed list names file, line and what was expected", () => {
    const { list } = writeFixture(
      "equivalents:\n  - file: reference/client/a.ts\n    mutator: X\n    original: a\n    replacement: b\n    reason: ''\n",
    );
    expect(() => loadEquivalents(list)).toThrow(`${list}:2: "reason" is empty`);
    writeFileSync(list, "equivalents:\n  - file: a\n    mutatr: X\n");
    expect(() => loadEquivalents(list)).toThrow(`${list}:2: unknown key "mutatr"`);
    writeFileSync(list, "equivalents: [\n");
    expect(() => loadEquivalents(list)).toThrow(new RegExp(`^${list}:\\d+: `));
  });
});
