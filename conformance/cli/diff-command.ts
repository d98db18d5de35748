// `conformance diff BEFORE.json AFTER.json`: what changed between two reports (conformance/report/diff.ts),
// on the console, as Markdown (--markdown, fit for a pull-request comment) and as JSON (--json,
// conformance/schema/diff.schema.json). Exit status: 1 when anything regressed, 0 otherwise, 2 on bad
// input (an unreadable, cut-short or foreign file: readJsonReport names it and what is wrong).
import type { Command } from "commander";
import { writeOutput } from "../common/write-output.ts";
import { diffReports } from "../report/diff.ts";
import { renderDiffConsole, renderDiffMarkdown } from "../report/diff-render.ts";
import { readJsonReport } from "../report/json-report.ts";
import { appendStepSummary } from "../report/step-summary.ts";

export function registerDiffCommand(program: Command): void {
  program
    .command("diff")
    .description(
      "what changed between two JSON reports (run, merge or history): new failures, fixes, added and removed scenarios, subjects that became unavailable; exit 1 when anything regressed",
    )
    .argument("<before>", "the earlier JSON report")
    .argument("<after>", "the later JSON report")
    .option("--json <file>", "write the diff as JSON (conformance/schema/diff.schema.json)")
    .option("--markdown <file>", "write the diff as Markdown, e.g. for a pull-request comment")
    .action(async (beforeFile: string, afterFile: string, options: { json?: string; markdown?: string }) => {
      const [before, after] = await Promise.all([readJsonReport(beforeFile), readJsonReport(afterFile)]);
      const diff = diffReports(before, after, { before: beforeFile, after: afterFile });
      if (options.json) await writeOutput(options.json, `${JSON.stringify(diff, null, 2)}\n`);
      if (options.markdown) await writeOutput(options.markdown, renderDiffMarkdown(diff));
      await appendStepSummary(renderDiffMarkdown(diff, { limit: 20 }));
      console.log(renderDiffConsole(diff));
      process.exitCode = diff.regressed ? 1 : 0;
    });
}
