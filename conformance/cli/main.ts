// The command line: run | list | lint (see README.md). Exit status (README's table, tested end to end
// in test/conformance/cli/cli.test.ts): 0 when nothing unexpected happened, 1 when a scenario failed
// unexpectedly or a baseline entry went stale, 2 on bad input (lint errors, a usage error, an unreadable file).
import { relative } from "node:path";
import { pathToFileURL } from "node:url";
import { Command, CommanderError, InvalidArgumentError, Option } from "commander";
import picomatch from "picomatch";
import { formatDiagnostic } from "../scenario/load.ts";
import type { LintResult } from "../scenario/lint.ts";
import { formatBoundarySummary, formatBoundaryTable } from "../scenario/boundaries/format.ts";
import { orphanProblems } from "../report/baseline.ts";
import { formatSummary } from "../report/console.ts";
import { mergeReports, readJsonReport } from "../report/json-report.ts";
import { toolnexusDurationsFile, toolnexusSuite } from "../suite/toolnexus.ts";
import { writeReportFiles, type ReportFiles } from "../run/report-files.ts";
import { formatOddOneOut } from "../report/odd-one-out.ts";
import { appendStepSummary, renderReportSummary } from "../report/step-summary.ts";
import { registerDiffCommand } from "./diff-command.ts";
import { registerObtainableCommand } from "./obtainable-command.ts";
import type { Report } from "../schema/report.types.ts";
import { emptyShardReport, runAgainstSubjects, type SubjectChoice } from "../run/against-subjects.ts";
import { cleanUpOnInterrupt } from "../common/interrupt.ts";
import { applyEnvironment } from "../common/environment.ts";
import { removeLiveTempDirs } from "../engine/temp-dirs.ts";
import { killLiveProcessGroups } from "../common/process-group.ts";
import { defaultJobs } from "../subjects/pool.ts";
import { smoke } from "./smoke.ts";
import { registerCaptureCommands } from "../capture/cli.ts";
import { registerHistoryCommand } from "./history.ts";
import { registerBaselineCommand } from "./baseline-command.ts";
import { sourceCommitEnvironmentVariable, sourceEnvironmentVariable, type PortSourceChoice } from "../subjects/port-source.ts";
import { lintOrExplain, scenariosToRun, selectScenarios, shard, wholeSuiteIds } from "./scenarios-to-run.ts";
import { checkRunnerNames, commandTypo, jobsOption, repeatOption, subjectsAtOnceOption, throwUsageErrors, usageHint } from "./usage.ts";
import { UsageError } from "../common/usage-error.ts";

function parseShard(value: string): { index: number; count: number } {
  const match = /^(\d+)\/(\d+)$/.exec(value);
  const index = Number(match?.[1]);
  const count = Number(match?.[2]);
  if (!match || index < 1 || count < 1 || index > count) throw new InvalidArgumentError("expected i/n with 1 <= i <= n, e.g. 2/4");
  return { index, count };
}

const collect = (value: string, previous: string[]) => [...previous, value];

function parsePositiveInteger(value: string): number {
  const number = Number(value);
  if (!Number.isInteger(number) || number < 1) throw new InvalidArgumentError("expected a positive whole number of milliseconds");
  return number;
}

/** --source, else the environment variable CI configs set; an empty value means none. */
function sourceChoice(dir: string | undefined, commit: string | undefined): PortSourceChoice | undefined {
  const chosen = dir || process.env[sourceEnvironmentVariable];
  if (!chosen) return undefined;
  const sha = commit || process.env[sourceCommitEnvironmentVariable];
  return { dir: chosen, ...(sha ? { commit: sha } : {}) };
}

const writeReports = (report: Report, files: ReportFiles) => writeReportFiles(report, files, toolnexusSuite.title);

export function buildProgram(): Command {
  const program = new Command("conformance").description("Behavioural conformance harness for the toolnexus contract");

  program
    .command("run", { isDefault: true })
    .description("run scenarios against subjects (default: every scenario against the in-process reference)")
    .argument("[paths...]", "scenario files or folders", [])
    .addOption(new Option("--subject <name>", "an in-process subject").choices(["reference"]))
    .option("--runner <name>", "a runner under runners/: NAME, NAME@source, NAME@VERSION (repeatable), or 'all'", collect, [])
    .option("--runner-cmd <command>", "start this command as a runner speaking runners/PROTOCOL.md")
    .option("--handshake-timeout <ms>", "how long --runner-cmd gets to answer the handshake (default 60000)", parsePositiveInteger)
    .option(
      "--source <dir>",
      `build runners from this toolnexus checkout (root or one port's folder) instead of their published packages; default: $${sourceEnvironmentVariable}`,
    )
    .option(
      "--source-commit <sha>",
      `the commit the --source checkout is at, recorded in reports; default: $${sourceCommitEnvironmentVariable}`,
    )
    .option("--baseline <file>", "use this expected-failures file instead of the runner's own (one runner subject)")
    .option("--no-baseline", "judge without any baseline: every divergence shows (e.g. a release no one has measured yet)")
    .option("--skip <subject>", "leave this subject out of --runner all, e.g. one another job already checks (repeatable)", collect, [])
    .option(
      "--require <subject>",
      "fail the run unless this subject (e.g. go@source) ran, even when picked by 'all' (repeatable)",
      collect,
      [],
    )
    .option("--filter <glob>", "only scenarios whose id matches, e.g. 'client.request-params.*' (repeatable: any of them)", collect, [])
    .option("--tag <tag>", "only scenarios with this tag (repeatable)", collect, [])
    .option("--shard <i/n>", "run only shard i of n", parseShard)
    .addOption(jobsOption())
    .addOption(subjectsAtOnceOption())
    .addOption(repeatOption())
    .option("--json <file>", "write the JSON report")
    .option("--junit <file>", "write JUnit XML")
    .option("--matrix <file>", "write the compliance matrix (Markdown)")
    .option("--html <file>", "write the compliance matrix as one self-contained HTML page")
    .option("--badges <dir>", "write a shields.io endpoint JSON and an SVG badge per subject into this folder")
    .action(async (paths: string[], options) => {
      checkRunnerNames(options.runner, "run");
      let scenarios = await scenariosToRun(paths, options.filter, options.tag);
      // The whole suite (each shard included) is what baseline entries can be checked against.
      const suiteIds = wholeSuiteIds(scenarios, { paths, filters: options.filter, tags: options.tag });
      if (options.shard) {
        const { index, count } = options.shard;
        const selected = scenarios.length;
        scenarios = shard(scenarios, index, count);
        if (!scenarios.length) {
          // A CI matrix's fixed shard count over a small or filtered suite: nothing to do here is no failure.
          await writeReports(emptyShardReport(options.shard), options);
          console.log(
            `conformance: shard ${index}/${count} is empty (${selected} scenario${selected === 1 ? "" : "s"} for ${count} shards): nothing to run`,
          );
          process.exitCode = 0;
          return;
        }
      }
      const choice: SubjectChoice = {
        subject: options.subject,
        runners: options.runner,
        runnerCommand: options.runnerCmd,
        source: sourceChoice(options.source, options.sourceCommit),
        // commander: a path for --baseline FILE, false for --no-baseline.
        baselineFile: typeof options.baseline === "string" ? options.baseline : undefined,
        noBaseline: options.baseline === false,
        handshakeTimeoutMs: options.handshakeTimeout,
        skip: options.skip,
        jobs: options.jobs ?? defaultJobs(),
      };
      const { report, problems } = await runAgainstSubjects(scenarios, choice, {
        suiteIds,
        sharded: Boolean(options.shard),
        required: options.require,
        repeat: options.repeat,
        subjectsAtOnce: options.subjectsAtOnce,
        shard: options.shard,
        fixtureKinds: toolnexusSuite.fixtureKinds,
        durationsFile: toolnexusDurationsFile,
      });
      await writeReports(report, options);
      for (const problem of problems) console.error(problem);
      for (const line of formatOddOneOut(report)) console.log(line);
      console.log(formatSummary(report.results, problems));
      await appendStepSummary(
        renderReportSummary(report, {
          title: `conformance run${options.shard ? ` (shard ${options.shard.index}/${options.shard.count})` : ""}`,
          problems,
        }),
      );
      process.exitCode = report.results.some((result) => result.outcome !== "as-expected") || problems.length ? 1 : 0;
    });

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

  program
    .command("smoke")
    .description("check that a runner itself is sound: handshake, round trips, reset, unknown operations, exit")
    .option("--runner <name>", "a runner under runners/")
    .option("--runner-cmd <command>", "a runner command line")
    .option("--source <dir>", `build the runner's port from this checkout; default: $${sourceEnvironmentVariable}`)
    .action(async (options) => {
      if (!options.runner === !options.runnerCmd)
        throw new UsageError("smoke needs exactly one of --runner NAME or --runner-cmd CMD", "smoke");
      if (options.runner) checkRunnerNames([options.runner], "smoke");
      const source = options.runner ? sourceChoice(options.source, undefined) : undefined;
      process.exitCode = (await smoke({ runner: options.runner, runnerCommand: options.runnerCmd, source })) ? 0 : 1;
    });

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

  registerCaptureCommands(program);
  registerHistoryCommand(program);
  registerBaselineCommand(program);
  registerDiffCommand(program);
  registerObtainableCommand(program);
  throwUsageErrors(program);
  return program;
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

/**
 * The CLI on `argv`; returns the exit status. Commands set process.exitCode as they finish; main reads it
 * and puts back what was there before, so a caller in the same process (the tests) sees only the return.
 */
export async function main(argv: string[]): Promise<number> {
  const before = process.exitCode;
  process.exitCode = undefined;
  try {
    return await runProgram(argv);
  } finally {
    process.exitCode = before;
  }
}

async function runProgram(argv: string[]): Promise<number> {
  cleanUpOnInterrupt(() => {
    killLiveProcessGroups();
    removeLiveTempDirs();
  });
  // Before any command opens a subject: the in-process reference reads it, every runner inherits it.
  applyEnvironment(toolnexusSuite.environment);
  const program = buildProgram();
  try {
    const typo = commandTypo(program, argv.slice(2));
    if (typo) throw typo;
    await program.parseAsync(argv);
    return Number(process.exitCode ?? 0);
  } catch (error) {
    if (error instanceof CommanderError && error.exitCode === 0) return 0; // --help
    console.error(`conformance: ${error instanceof Error ? error.message : String(error)}`);
    if (error instanceof UsageError && error.helpCommand !== undefined) console.error(usageHint(program.name(), error.helpCommand));
    // Usage errors and bad input alike: nothing ran, so this is not a test verdict.
    if (!(error instanceof UsageError) && process.env.CONFORMANCE_DEBUG) console.error(error);
    return 2;
  }
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  process.exitCode = await main(process.argv);
}
