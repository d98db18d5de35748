// The recorded duration table orders lanes' work only; these pin how it is read, written and consulted.
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import {
  durationWeight,
  emptyDurations,
  loadDurationTable,
  parseDurationTable,
  recordDurations,
} from "../../../conformance/report/durations.ts";
import type { Result } from "../../../conformance/schema/report.types.ts";

const dir = mkdtempSync(join(tmpdir(), "tnc-durations-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const result = (subject: string, scenario: string, durationMs: number) => ({ subject, scenario, durationMs, status: "pass" }) as Result;

describe("recorded durations", () => {
  it("weighs by the subject's own time, else the longest any subject took, else the fallback", () => {
    const table = { about: "", subjects: { python: { slow: 20_000, both: 300 }, reference: { both: 900, fast: 50 } } };
    const fallback = () => 7;
    const python = durationWeight(table, "python", fallback);
    expect([python({ id: "slow" }), python({ id: "both" }), python({ id: "fast" }), python({ id: "new" })]).toEqual([20_000, 300, 50, 7]);
    const unrecorded = durationWeight(table, "rust", fallback);
    expect([unrecorded({ id: "slow" }), unrecorded({ id: "both" }), unrecorded({ id: "new" })]).toEqual([20_000, 900, 7]);
  });

  it("records each subject of the results in place of its old entries, rounded, subjects sorted", () => {
    const before = { about: "old", subjects: { ts: { a: 1 }, python: { gone: 5 } } };
    const after = recordDurations(before, [result("python", "b", 1234.5), result("reference", "a", 66)], "new");
    expect(after).toEqual({ about: "new", subjects: { python: { b: 1230 }, reference: { a: 70 }, ts: { a: 1 } } });
    expect(Object.keys(after.subjects)).toEqual(["python", "reference", "ts"]);
  });

  it("names the file and what was expected when the table is malformed; a missing file is an empty table", async () => {
    expect(() => parseDurationTable("{", "d.json")).toThrow(/^d\.json: not JSON/);
    expect(() => parseDurationTable('{"subjects": {}}', "d.json")).toThrow(
      'd.json: expected {"about": TEXT, "subjects": {SUBJECT: {SCENARIO ID: MS}}}',
    );
    expect(() => parseDurationTable('{"about": "", "subjects": {"ts": {"a": -1}}}', "d.json")).toThrow(
      "d.json: subjects.ts: expected {SCENARIO ID: milliseconds >= 0}",
    );
    expect(await loadDurationTable(join(dir, "absent.json"))).toEqual(emptyDurations);
    const file = join(dir, "t.json");
    writeFileSync(file, JSON.stringify({ about: "x", subjects: { ts: { a: 3 } } }));
    expect((await loadDurationTable(file)).subjects.ts.a).toBe(3);
  });
});
