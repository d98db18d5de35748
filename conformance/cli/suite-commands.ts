// `list` and `lint`: the suite's scenarios as lint reads them (exit 2 on a lint problem); lint also
// shows SPEC clause coverage and the boundary-value table for the whole suite.
import { relative } from "node:path";
import type { Command } from "commander";
import picomatch from "picomatch";
import { formatBoundarySummary, formatBoundaryTable } from "../scenario/boundaries/format.ts";
import type { LintResult } from "../scenario/lint.ts";
import { formatDiagnostic } from "../scenario/load.ts";
import { toolnexusSuite } from "../suite/toolnexus.ts";
import { collect } from "./options.ts";
import { lintOrExplain, selectScenarios } from "./scenarios-to-run.ts";

export function registerListCommand(program: Command): void {
  program
    .command("list")
    .description("list the expanded scenario ids, with their clauses and required capabilities")
    .argument("[paths...]", "scenario files or folders", [])
    .option("--filter <glob>", "only ids matching this glob (repeatable: any of them)", collect, [])
    .option("--tag <tag>", "only scenarios with this tag (repeatable)", collect, [])
    .action(async (paths: string[], options) => {
      const lint = await lintOrExplain(paths);
      for (const diagnostic of lint.diagnostics) console.error(formatDiagnostic(diagnostic));
      const scenarios = selectScenarios(lint.expanded, options.filter.length ? picomatch(options.filter) : undefined, options.tag);
      for (const scenario of scenarios) {
        console.log(`${scenario.id}\t${scenario.spec.join(",")}\t${scenario.requires.join(",") || "-"}\t${scenario.source.file}`);
      }
      console.error(`${scenarios.length} scenarios`);
      if (lint.diagnostics.length) process.exitCode = 2;
    });
}

export function registerLintCommand(program: Command): void {
  program
    .command("lint")
    .description(
      "check scenarios (syntax, schema, ids, clauses, captures, operations, fixtures, matchers); the whole suite also shows SPEC coverage",
    )
    .argument("[paths...]", "scenario files or folders (default: the whole suite)", [])
    .option("--coverage", "show the SPEC clause coverage table also for the paths given; with no paths, also the boundary-value table")
    .option("--quiet", "no coverage table")
    .action(async (paths: string[], options) => {
      // The boundary table is the whole suite's: gated (and shown) only when no paths narrow it.
      const lint = await lintOrExplain(paths, { boundaries: !paths.length });
      for (const diagnostic of lint.diagnostics) console.error(formatDiagnostic(diagnostic));
      // Coverage means something for the whole suite; for a few files it is a screen of "uncovered".
      if (options.coverage || (!paths.length && !options.quiet)) printCoverage(lint);
      if (lint.boundaries) {
        const file = relative(process.cwd(), toolnexusSuite.boundaries.explanationsFile);
        console.log(
          options.coverage ? formatBoundaryTable(lint.boundaries, file).join("\n") : formatBoundarySummary(lint.boundaries, file),
        );
      }
      console.log(
        `${lint.files.length} files, ${lint.scenarios.length} valid scenarios (${lint.expanded.length} expanded), ${lint.diagnostics.length} problems`,
      );
      if (lint.diagnostics.length) process.exitCode = 2;
    });
}

function printCoverage(lint: LintResult): void {
  const rows = [...lint.coverage].map(([clause, scenarios]) => ({ clause, count: scenarios.length }));
  const width = Math.max(...rows.map((row) => row.clause.length), 6);
  console.log(`${"clause".padEnd(width)}  scenarios`);
  for (const row of rows) console.log(`${row.clause.padEnd(width)}  ${row.count || "-- uncovered"}`);
  const uncovered = rows.filter((row) => row.count === 0);
  console.log(
    `${rows.length - uncovered.length} of ${rows.length} clauses covered${uncovered.length ? `; uncovered: ${uncovered.map((row) => row.clause).join(", ")}` : ""}`,
  );
}
