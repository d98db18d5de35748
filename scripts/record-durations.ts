// Records how long each scenario took per subject into fixtures/durations.json, from `run --json`
// reports, so `run --jobs N` and test/suite start the longest scenarios first (report/durations.ts).
// Each subject a report holds replaces that subject's entries; the others stay. Exit 2 on bad input.
//
//   npx tsx scripts/record-durations.ts out/reference.json out/python.json
import { writeFile } from "node:fs/promises";
import { loadDurationTable, recordDurations } from "../conformance/report/durations.ts";
import { readJsonReport } from "../conformance/report/json-report.ts";
import { toolnexusDurationsFile } from "../conformance/suite/toolnexus.ts";

const files = process.argv.slice(2);
if (!files.length) {
  console.error("record-durations: expected one or more JSON reports (run --json FILE)");
  process.exit(2);
}
const about =
  "Milliseconds each scenario took per subject in a measured whole-suite run (scripts/record-durations.ts from run --json reports). Used only to start the longest scenarios first under run --jobs N: no result depends on it, and a stale entry costs time, never correctness.";
let table = await loadDurationTable(toolnexusDurationsFile);
for (const file of files) {
  const report = await readJsonReport(file);
  const ran = report.results.filter((result) => result.status !== "skip");
  table = recordDurations(table, ran, about);
  console.log(`record-durations: ${file}: ${ran.length} results of ${[...new Set(ran.map((result) => result.subject))].join(", ")}`);
}
await writeFile(toolnexusDurationsFile, `${JSON.stringify(table, null, 1)}\n`);
console.log(`record-durations: wrote ${toolnexusDurationsFile}`);
