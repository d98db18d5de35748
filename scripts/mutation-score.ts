// The end of `npm run mutate`: reads Stryker's JSON report and reference/EQUIVALENT-MUTANTS.yaml, prints
// the mutation score per folder and every undetected mutant the list does not account for (file:line,
// mutator, original -> replacement). Exit 1 when an equivalent entry is stale (its code changed, so its
// reason must be checked again) or the list is malformed; survivors alone do not fail (they are listed).
// Usage: tsx scripts/mutation-score.ts [REPORT.json ...] [EQUIVALENTS.yaml]
// Several reports (runs over different files, e.g. a folder mutated in two sittings) are scored as one;
// a file mutated in more than one takes the last report's results.
import { existsSync } from "node:fs";
import { loadEquivalents, matchEquivalents } from "./mutation/equivalents.ts";
import { readReports, scoreByFolder } from "./mutation/report.ts";

const args = process.argv.slice(2);
const reportPaths = args.filter((arg) => !/\.ya?ml$/.test(arg));
const listPath = args.find((arg) => /\.ya?ml$/.test(arg)) ?? "reference/EQUIVALENT-MUTANTS.yaml";
if (!reportPaths.length) reportPaths.push("out/mutation/mutation.json");

function main(): number {
  const mutants = readReports(reportPaths);
  const entries = loadEquivalents(listPath);
  const { equivalent, stale, unchecked } = matchEquivalents(entries, mutants, new Set(mutants.map((mutant) => mutant.file)));
  const rows = scoreByFolder(mutants, equivalent);

  const percent = (score?: number) => (score === undefined ? "-" : `${(Math.floor(score * 1000) / 10).toFixed(1)}%`);
  console.log("folder              mutants  detected  undetected  equivalent  excluded  score");
  for (const row of rows) {
    const cells = [row.total, row.detected, row.undetected.length, row.equivalent, row.excluded].map((n, i) =>
      String(n).padStart([7, 9, 11, 11, 9][i]),
    );
    console.log(`${row.folder.padEnd(18)}${cells.join(" ")}  ${percent(row.score)}`);
  }
  console.log(
    "score = detected (Killed, Timeout) / (mutants - equivalent - excluded (Ignored, CompileError, RuntimeError)); NoCoverage counts as undetected",
  );

  const undetected = rows.flatMap((row) => row.undetected);
  if (undetected.length) {
    console.log(`\n${undetected.length} undetected mutants not listed as equivalent:`);
    for (const mutant of undetected) {
      const change = `${JSON.stringify(mutant.original.replace(/\s+/g, " "))} -> ${JSON.stringify(mutant.replacement.replace(/\s+/g, " "))}`;
      console.log(`  ${mutant.file}:${mutant.line}:${mutant.column} ${mutant.mutatorName} ${mutant.status}: ${change}`);
    }
  }

  const missingFiles = unchecked.filter((entry) => !existsSync(entry.file));
  if (unchecked.length > missingFiles.length)
    console.log(`\n${unchecked.length - missingFiles.length} equivalent entries not checked: their files were not mutated in this run`);
  const problems = [
    ...stale.map(
      ({ entry, found }) =>
        `${listPath}:${entry.at}: stale: expected ${entry.matches ?? 1} mutant(s) of ${entry.file} ` +
        `(${entry.mutator} ${JSON.stringify(entry.original)} -> ${JSON.stringify(entry.replacement)}` +
        `${entry.line ? ` on a line containing ${JSON.stringify(entry.line)}` : ""}), found ${found}: ` +
        `the code changed; check the reason again and update or remove the entry`,
    ),
    ...missingFiles.map((entry) => `${listPath}:${entry.at}: stale: ${entry.file} no longer exists`),
  ];
  for (const problem of problems) console.error(problem);
  return problems.length ? 1 : 0;
}

try {
  process.exitCode = main();
} catch (error) {
  console.error((error as Error).message);
  process.exitCode = 1;
}
