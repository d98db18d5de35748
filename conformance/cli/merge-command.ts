// `merge`: JSON reports (a parallel CI run's shards) into one, rendered; a baseline entry naming no
// scenario of the suite, which no shard alone can tell, is found here (exit 1).
import type { Command } from "commander";
import { orphanProblems } from "../report/baseline.ts";
import { formatSummary } from "../report/console.ts";
import { mergeReports, readJsonReport } from "../report/json-report.ts";
import { formatOddOneOut } from "../report/odd-one-out.ts";
import { appendStepSummary, renderReportSummary } from "../report/step-summary.ts";
import { writeReports } from "./options.ts";

export function registerMergeCommand(program: Command): void {
  program
    .command("merge")
    .description("merge JSON reports (e.g. the shards of a parallel CI run) into one, and render it")
    .argument("<reports...>", "JSON report files")
    .requiredOption("--json <file>", "write the merged JSON report")
    .option("--junit <file>", "write JUnit XML")
    .option("--matrix <file>", "write the compliance matrix (Markdown)")
    .option("--html <file>", "write the compliance matrix as one self-contained HTML page")
    .option("--badges <dir>", "write a shields.io endpoint JSON and an SVG badge per subject into this folder")
    .action(async (files: string[], options) => {
      const merged = mergeReports(await Promise.all(files.map(readJsonReport)), files);
      await writeReports(merged, options);
      // The stale-entry check a shard cannot make alone: each shard of a whole-suite run recorded its
      // baselines' entries that name no scenario of the suite.
      const problems = merged.subjects.flatMap((subject) => orphanProblems(subject.name, subject.orphanedEntries ?? []));
      for (const problem of problems) console.error(problem);
      for (const line of formatOddOneOut(merged)) console.log(line);
      console.log(`merged ${files.length} reports: ${formatSummary(merged.results, problems)}`);
      await appendStepSummary(renderReportSummary(merged, { title: `conformance: ${files.length} reports merged`, problems }));
      process.exitCode = merged.results.some((result) => result.outcome !== "as-expected") || problems.length ? 1 : 0;
    });
}
