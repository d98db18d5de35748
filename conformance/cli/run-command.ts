// `run` (the default command): scenarios against subjects, the console as results arrive, the reports.
// Exit 1 when a result was not as expected or a subject or baseline has a problem (docs/using.md's table).
import { Option, type Command } from "commander";
import { appendStepSummary, renderReportSummary } from "../report/step-summary.ts";
import { formatSummary } from "../report/console.ts";
import { formatOddOneOut } from "../report/odd-one-out.ts";
import { emptyShardReport, runAgainstSubjects, type SubjectChoice } from "../run/against-subjects.ts";
import { chooseTimeScale, type TimeScaleOption } from "../run/time-scale-choice.ts";
import { sourceCommitEnvironmentVariable, sourceEnvironmentVariable } from "../subjects/port-source.ts";
import { defaultJobs } from "../subjects/pool.ts";
import { toolnexusDurationsFile, toolnexusSuite } from "../suite/toolnexus.ts";
import { collect, parsePositiveInteger, parseShard, sourceChoice, writeReports } from "./options.ts";
import { scenariosToRun, shard, wholeSuiteIds } from "./scenarios-to-run.ts";
import { checkRunnerNames, jobsOption, repeatOption, subjectsAtOnceOption, timeScaleOption } from "./usage.ts";

/** The time scale a run uses (auto by default), with the suite's time keys; undefined at 1. */
async function timeScaleOf(option: TimeScaleOption) {
  const chosen = await chooseTimeScale(option);
  return chosen && { chosen, keys: toolnexusSuite.timeKeys };
}

export function registerRunCommand(program: Command): void {
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
    .addOption(timeScaleOption())
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
        timeScale: await timeScaleOf(options.timeScale),
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
}
