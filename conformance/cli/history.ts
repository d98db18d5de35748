// `conformance history`: run a runner's published versions one after another, each exactly like
// `run --runner NAME@VERSION --json DIR/NAME@VERSION.json`, and render the history matrix from their
// reports (conformance/report/history/); or, with --from-reports, only render it from existing
// reports. Exit status: 0 when every version ran (failures are findings here, not errors), 1 when a
// version was unavailable, 2 on bad input.
import { basename, join } from "node:path";
import type { Command } from "commander";
import { writeOutput } from "../common/write-output.ts";
import { formatSummary } from "../report/console.ts";
import { compareVersions, isVersionToken, sortVersions } from "../common/versions.ts";
import { renderHistoryHtml } from "../report/history/html.ts";
import { renderHistoryMarkdown } from "../report/history/markdown.ts";
import { buildHistory } from "../report/history/model.ts";
import { changeCounts } from "../report/history/text.ts";
import { readJsonReport } from "../report/json-report.ts";
import { toolnexusDurationsFile, toolnexusSuite } from "../suite/toolnexus.ts";
import type { ExpandedScenario } from "../scenario/expand.ts";
import type { Report } from "../schema/report.types.ts";
import { runBounded } from "../common/run-bounded.ts";
import { installerWords, readManifest } from "../subjects/runner-registry.ts";
import type { RunnerManifest } from "../../runners/protocol/runner-manifest.types.ts";
import { runnersDir } from "../common/paths.ts";
import { runAgainstSubjects } from "../run/against-subjects.ts";
import { scenariosToRun, wholeSuiteIds } from "./scenarios-to-run.ts";
import { checkRunnerNames, jobsOption } from "./usage.ts";
import { writeReports } from "./options.ts";
import { UsageError } from "../common/usage-error.ts";
import { defaultJobs } from "../subjects/pool.ts";

const collect = (value: string, previous: string[]) => [...previous, value];
const defaultOut = "out/history";
const listTimeoutMs = 120_000;

export type VersionsSpec = { list: string[] } | { from: string; to: string };

/** --versions 0.9.0,0.10.0 (a list) or 0.9.0..0.21.0 (a range, both ends included). */
export function parseVersionsOption(text: string): VersionsSpec {
  const usage = (why: string) =>
    new UsageError(`--versions ${text}: ${why}; expected a comma list (0.9.0,0.10.0) or a range (0.9.0..0.21.0)`, "history");
  if (text.includes("..")) {
    const ends = text.split("..").map((end) => end.trim());
    if (ends.length !== 2 || text.includes(",")) throw usage("a range has exactly two ends and no commas");
    const [from, to] = ends;
    for (const end of ends) if (!isVersionToken(end)) throw usage(`"${end}" is no version`);
    if (compareVersions(from, to) > 0) throw usage(`${from} comes after ${to}`);
    return { from, to };
  }
  const list = text.split(",").map((version) => version.trim());
  for (const version of list) if (!isVersionToken(version)) throw usage(version ? `"${version}" is no version` : "an empty entry");
  return { list: sortVersions(list) };
}

/** The versions of a list within from..to (both included), sorted. */
export function versionsInRange(versions: string[], from: string, to: string): string[] {
  return sortVersions(versions.filter((version) => compareVersions(version, from) >= 0 && compareVersions(version, to) <= 0));
}

/** Runs a runner's versions.list in its folder (bounded); its stdout, one version a line, sorted. */
export async function listPublishedVersions(runner: string, command: string[], timeoutMs = listTimeoutMs): Promise<string[]> {
  const listed = await runBounded(command, { cwd: join(runnersDir, runner), timeoutMs, tails: { stdout: 256 * 1024, stderr: 16 * 1024 } });
  const what = `runners/${runner}/runner.json versions.list (${command.join(" ")})`;
  if (listed.startError) throw new Error(`${what} could not start: ${listed.startError.message}`);
  if (listed.timedOut) throw new Error(`${what} did not finish within ${timeoutMs} ms`);
  if (listed.code !== 0)
    throw new Error(`${what} exited with ${listed.code}:\n${installerWords(listed.stderr || listed.stdout).slice(-4000)}`);
  return sortVersions(
    listed.stdout
      .split("\n")
      .map((line) => line.trim())
      .filter(isVersionToken),
  );
}

/** The versions to run: a list as given, or a range resolved by the runner's versions.list. */
export async function resolveVersions(
  runner: string,
  manifest: RunnerManifest,
  spec: VersionsSpec,
  list = listPublishedVersions,
): Promise<string[]> {
  if ("list" in spec) return spec.list;
  const command = manifest.versions?.list;
  if (!command) {
    throw new UsageError(
      `runners/${runner}/runner.json has no versions.list to find the versions in ${spec.from}..${spec.to}: give them as a comma list, e.g. --versions ${spec.from},${spec.to}`,
      "history",
    );
  }
  const available = await list(runner, command);
  const chosen = versionsInRange(available, spec.from, spec.to);
  if (!chosen.length)
    throw new UsageError(
      `no version of ${runner} in ${spec.from}..${spec.to}; its versions.list names: ${available.join(", ") || "(none)"}`,
      "history",
    );
  return chosen;
}

interface HistoryOptions {
  runner?: string;
  versions?: string;
  out: string;
  baseline: boolean;
  fromReports?: string[];
  filter: string[];
  tag: string[];
  jobs?: number;
}

const quote = (text: string) => (/^[\w@%+=:,./-]+$/.test(text) ? text : `'${text.replace(/'/g, "'\\''")}'`);

/** The command line that reproduces this history (shown with it). */
function commandLine(paths: string[], options: HistoryOptions): string {
  const args = ["history", ...paths];
  if (options.fromReports) args.push("--from-reports", ...options.fromReports.map((file) => basename(file)));
  if (options.runner) args.push("--runner", options.runner, "--versions", options.versions ?? "");
  if (!options.baseline) args.push("--no-baseline");
  for (const filter of options.filter) args.push("--filter", filter);
  for (const tag of options.tag) args.push("--tag", tag);
  if (options.out !== defaultOut) args.push("--out", options.out);
  return `npm run conformance -- ${args.map(quote).join(" ")}`;
}

function checkOptions(paths: string[], options: HistoryOptions): void {
  if (options.fromReports) {
    const extra = [
      options.runner && "--runner",
      options.versions && "--versions",
      paths.length && "scenario paths",
      options.filter.length && "--filter",
      options.tag.length && "--tag",
      !options.baseline && "--no-baseline",
    ].filter(Boolean);
    if (extra.length)
      throw new UsageError(
        `--from-reports runs nothing, so ${extra.join(", ")} would do nothing: render from reports, or run versions`,
        "history",
      );
    return;
  }
  if (!options.runner || !options.versions)
    throw new UsageError("history needs --runner NAME and --versions LIST|A..B, or --from-reports FILE...", "history");
  if (options.runner.includes("@") || options.runner === "all")
    throw new UsageError(`--runner ${options.runner}: name one runner; --versions says which versions`, "history");
  checkRunnerNames([options.runner], "history");
}

/** Each version in turn, like `run --runner NAME@VERSION --json DIR/NAME@VERSION.json`; the reports in order. */
async function runVersions(
  paths: string[],
  options: HistoryOptions & { runner: string },
  scenarios: ExpandedScenario[],
  versions: string[],
): Promise<{ reports: Report[]; files: string[] }> {
  // The stale-baseline check of `run`, for the whole suite judged by baselines only.
  const suiteIds = options.baseline ? wholeSuiteIds(scenarios, { paths, filters: options.filter, tags: options.tag }) : undefined;
  const reports: Report[] = [];
  const files: string[] = [];
  for (const [index, version] of versions.entries()) {
    const subject = `${options.runner}@${version}`;
    console.log(`== history ${index + 1}/${versions.length}: ${subject}`);
    const { report, problems } = await runAgainstSubjects(
      scenarios,
      { runners: [subject], noBaseline: !options.baseline, jobs: options.jobs ?? defaultJobs() },
      { suiteIds, fixtureKinds: toolnexusSuite.fixtureKinds, durationsFile: toolnexusDurationsFile },
    );
    const file = join(options.out, `${subject}.json`);
    await writeReports(report, { json: file });
    // An unavailable version is shown in the history with its reason; other problems (a stale baseline entry) are worth a line.
    for (const problem of problems) if (!problem.startsWith(`${subject} is unavailable: `)) console.error(problem);
    if (report.subjects.every((each) => each.available)) console.log(formatSummary(report.results));
    console.log(`${subject}: ${report.subjects.every((each) => each.available) ? "ran" : "unavailable"}; wrote ${file}`);
    reports.push(report);
    files.push(file);
  }
  return { reports, files };
}

export async function history(paths: string[], options: HistoryOptions): Promise<number> {
  checkOptions(paths, options);
  let reports: Report[];
  let files: string[];
  if (options.fromReports) {
    files = options.fromReports;
    reports = await Promise.all(files.map(readJsonReport));
  } else {
    const runner = options.runner!;
    const spec = parseVersionsOption(options.versions!);
    const manifest = await readManifest(runner);
    if (!manifest.versions)
      throw new UsageError(
        `runners/${runner}/runner.json has no versions block: this runner drives only its pinned package (${manifest.package})`,
        "history",
      );
    const scenarios = await scenariosToRun(paths, options.filter, options.tag);
    const versions = await resolveVersions(runner, manifest, spec);
    console.log(
      `history of ${runner}: ${versions.join(", ")}, one after another, ${scenarios.length} scenarios each${options.baseline ? "" : ", without baselines"}`,
    );
    ({ reports, files } = await runVersions(paths, { ...options, runner }, scenarios, versions));
  }
  const built = buildHistory(reports, files);
  const render = { command: commandLine(paths, options) };
  const markdown = join(options.out, "history.md");
  const html = join(options.out, "history.html");
  await writeOutput(markdown, renderHistoryMarkdown(built, render));
  await writeOutput(html, renderHistoryHtml(built, render));
  const unavailable = built.columns.filter((column) => !column.subject.available);
  const counts = changeCounts(built);
  console.log(
    `history: ${built.columns.length} version(s), ${unavailable.length ? `${unavailable.length} unavailable (${unavailable.map((column) => column.label).join(", ")})` : "all ran"}; ` +
      `${counts.scenarios} scenario(s) changed status (${counts.fix} fixes, ${counts.regression} regressions, ${counts.other} other); wrote ${markdown} and ${html}`,
  );
  return unavailable.length ? 1 : 0;
}

export function registerHistoryCommand(program: Command): void {
  program
    .command("history")
    .description(
      "run a runner's published versions one after another and show, per scenario, the release where its status changed (or render that from existing reports)",
    )
    .argument("[paths...]", "scenario files or folders (default: the whole suite)", [])
    .option("--runner <name>", "a runner under runners/ whose runner.json has a versions block")
    .option("--versions <list>", "a comma list (0.9.0,0.10.0) or a range A..B of the versions its versions.list names")
    .option("--out <dir>", "where each version's report (NAME@VERSION.json) and history.md / history.html go", defaultOut)
    .option("--no-baseline", "judge every version without a baseline (default: the version's own, runners/NAME/baselines/VERSION.yaml)")
    .option("--from-reports <files...>", "render the history from these JSON reports; run nothing")
    .option("--filter <glob>", "only scenarios whose id matches (repeatable: any of them)", collect, [])
    .option("--tag <tag>", "only scenarios with this tag (repeatable)", collect, [])
    .addOption(jobsOption())
    .action(async (paths: string[], options: HistoryOptions) => {
      process.exitCode = await history(paths, options);
    });
}
