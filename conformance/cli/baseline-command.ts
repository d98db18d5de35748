// `baseline --update FILE --runner NAME`: run one runner subject with no baseline and rewrite the
// `checks:` of FILE's existing entries from what failed (comments and reasons kept), listing what a
// person must decide: failures no entry lists, entries whose scenario now passes or ends otherwise.
// A run of the whole suite that leaves nothing to decide also writes the file's `measured`.
// Exit status: 0 when FILE now matches the run, 1 when something is left to decide, 2 on bad input.
import { readFile, writeFile } from "node:fs/promises";
import type { Command } from "commander";
import { runSuite } from "../run/suite.ts";
import { toolnexusSuite } from "../suite/toolnexus.ts";
import { updateBaselineChecks } from "../report/baseline-update.ts";
import { failedChecks } from "../report/baseline.ts";
import { describeOrigin } from "../report/origin.ts";
import type { Measured } from "../schema/baseline.types.ts";
import { openSubjects } from "../run/subjects.ts";
import type { PortSourceChoice } from "../subjects/port-source.ts";
import { sourceEnvironmentVariable } from "../subjects/port-source.ts";
import { scenariosToRun } from "./scenarios-to-run.ts";
import { checkRunnerNames } from "./usage.ts";
import { UsageError } from "../common/usage-error.ts";

const collect = (value: string, previous: string[]) => [...previous, value];

export function registerBaselineCommand(program: Command): void {
  program
    .command("baseline")
    .description(
      "rewrite the checks of a baseline's entries from a run of one runner (comments and reasons kept); list failures no entry lists",
    )
    .argument("[paths...]", "scenario files or folders (default: the whole suite)", [])
    .requiredOption("--update <file>", "the expected-failures file to update")
    .requiredOption("--runner <name>", "the runner subject it belongs to: NAME, NAME@source or NAME@VERSION")
    .option("--source <dir>", `build the runner from this toolnexus checkout; default: $${sourceEnvironmentVariable}`)
    .option("--filter <glob>", "only scenarios whose id matches (repeatable)", collect, [])
    .action(async (paths: string[], options: { update: string; runner: string; source?: string; filter: string[] }) => {
      checkRunnerNames([options.runner], "baseline");
      if (options.runner === "all")
        throw new UsageError("baseline --update takes one runner subject (a baseline belongs to one), not all", "baseline");
      const text = await readFile(options.update, "utf8").catch((error: Error) => {
        throw new UsageError(`cannot read ${options.update}: ${error.message}`, "baseline");
      });
      const scenarios = await scenariosToRun(paths, options.filter, []);
      const dir = options.source || process.env[sourceEnvironmentVariable];
      const source: PortSourceChoice | undefined = dir ? { dir } : undefined;
      let results: Awaited<ReturnType<typeof runSuite>> = [];
      let measuredBy: Measured | undefined;
      for await (const opened of openSubjects({ runners: [options.runner], source, noBaseline: true })) {
        if (!opened.subject) {
          console.error(`${opened.info.name} is unavailable: ${opened.unavailableReason}`);
          process.exitCode = 1;
          return;
        }
        console.log(
          `== ${opened.subject.info.name}: ${opened.subject.info.package} ${opened.subject.info.version}, ${scenarios.length} scenarios`,
        );
        const info = opened.subject.info;
        measuredBy = {
          date: new Date().toISOString().slice(0, "YYYY-MM-DD".length),
          command: `npm run conformance -- run --runner ${options.runner}${source ? " --source <checkout>" : ""}`,
          against: `${info.package} ${info.version} (${describeOrigin(info.build)}), ${scenarios.length} expanded scenarios`,
        };
        try {
          results = await runSuite(scenarios, opened.subject, {
            fixtureKinds: toolnexusSuite.fixtureKinds,
            onResult: (result) => {
              if (result.status === "fail" || result.status === "error")
                console.log(`${result.status.toUpperCase().padEnd(5)} ${result.scenario} ${JSON.stringify(failedChecks(result))}`);
            },
          });
        } finally {
          await opened.subject.close();
        }
      }
      // Only a run of the whole suite measures the whole file.
      const wholeSuite = !paths.length && !options.filter.length;
      const update = updateBaselineChecks(options.update, text, results, wholeSuite && measuredBy ? measuredBy : undefined);
      if (update.text !== text) await writeFile(options.update, update.text);
      for (const line of update.changed) console.log(`checks written: ${line}`);
      if (update.measuredWritten)
        console.log(
          `measured written: ${update.measuredWritten.date}, ${update.measuredWritten.command}, against ${update.measuredWritten.against}`,
        );
      for (const line of update.attention) console.log(`to decide: ${line}`);
      console.log(
        `${options.update}: ${update.changed.length} entr${update.changed.length === 1 ? "y" : "ies"} updated, ${update.attention.length} thing${update.attention.length === 1 ? "" : "s"} to decide`,
      );
      process.exitCode = update.attention.length ? 1 : 0;
    });
}
