// Usage errors: one line saying what is wrong and where the usage is, exit 2 (nothing ran), instead
// of commander's default (the whole help text, exit 1, which reads like a test verdict).
import { existsSync } from "node:fs";
import { Command, CommanderError, InvalidArgumentError, Option } from "commander";
import { closestName } from "../scenario/closest-name.ts";
import { checkTimeScale } from "../scenario/time-scale.ts";
import type { TimeScaleOption } from "../run/time-scale-choice.ts";
import { runnerNames } from "../subjects/runner-registry.ts";
import { defaultJobs } from "../subjects/pool.ts";
import { UsageError } from "../common/usage-error.ts";

/** The line after a usage error: which --help to read. */
export function usageHint(programName: string, helpCommand: string): string {
  return `(see \`${[programName, helpCommand].filter(Boolean).join(" ")} --help\` for the usage)`;
}

/** Makes commander throw a UsageError for every parse error of this command and its subcommands (main() prints it). */
export function throwUsageErrors(command: Command, helpCommand = ""): void {
  command.configureOutput({ outputError: () => undefined });
  command.exitOverride((error: CommanderError) => {
    if (error.exitCode === 0) throw error; // --help, --version: not an error
    // "error: unknown option '--filtr'\n(Did you mean --filter?)" -> one line.
    throw new UsageError(error.message.replace(/^error: /, "").replace(/\n\(Did you mean (.+)\?\)$/, "; did you mean $1?"), helpCommand);
  });
  for (const subcommand of command.commands) throwUsageErrors(subcommand, [helpCommand, subcommand.name()].filter(Boolean).join(" "));
}

/**
 * `conformance rnu`: the default command would read "rnu" as a scenario path. When the first
 * argument is no file or folder but close to a command name, it is a typo.
 */
export function commandTypo(program: Command, args: string[]): UsageError | undefined {
  const [first] = args;
  const names = [...program.commands.map((command) => command.name()), "help"];
  if (!first || first.startsWith("-") || names.includes(first) || existsSync(first)) return undefined;
  const suggestion = closestName(first, names);
  return suggestion
    ? new UsageError(`unknown command "${first}" (and no such file or folder); did you mean ${suggestion}?`, "")
    : undefined;
}

/** --runner NAME[@...]: a name that is no folder under runners/ is a usage error, with the closest one. */
export function checkRunnerNames(specs: string[], helpCommand: string): void {
  const known = runnerNames();
  for (const spec of specs) {
    const name = spec.split("@")[0];
    if (spec === "all" || known.includes(name)) continue;
    const suggestion = closestName(name, known);
    throw new UsageError(
      `no runner "${name}"${suggestion ? `; did you mean ${suggestion}?` : ""} (runners: ${known.join(", ")})`,
      helpCommand,
    );
  }
}

/** --jobs N: a whole number of lanes, 1 to 64 (more runner processes per subject than that is a typo). */
export function parseJobs(value: string): number {
  const number = Number(value);
  if (!/^\d+$/.test(value.trim()) || number < 1 || number > 64)
    throw new InvalidArgumentError("expected a whole number of scenarios at once, 1 to 64 (1: one after another)");
  return number;
}

/** run's and history's --jobs (the default is filled in by the command: it depends on the machine). */
export function jobsOption(): Option {
  return new Option(
    "--jobs <n>",
    `scenarios of a subject at once, each on its own runner process (default ${defaultJobs()} here: four per core, 2 to 8; 1: one after another); reports are the same whatever n`,
  ).argParser(parseJobs);
}

/** run's --subjects-at-once N: subjects whose scenarios run at the same time (each on its own --jobs lanes). */
export function subjectsAtOnceOption(): Option {
  return new Option(
    "--subjects-at-once <n>",
    "subjects whose scenarios run at the same time, each on its own --jobs lanes (default 1: one subject after another); output and reports are the same whatever n",
  ).argParser((value: string) => {
    const number = Number(value);
    if (!/^\d+$/.test(value.trim()) || number < 1 || number > 16)
      throw new InvalidArgumentError("expected a whole number of subjects at once, 1 to 16 (1: one after another)");
    return number;
  });
}

/** Sets --time-scale's default (a CI job pinning its scale, the tests pinning theirs to 1). */
export const timeScaleEnvironmentVariable = "TNC_TIME_SCALE";

export function timeScaleOption(): Option {
  return new Option(
    "--time-scale <n>",
    "multiply every time value of each scenario by n: its delays, timeouts and the bounds it checks on a time, together, for a busy machine; 'auto' (the default) chooses n from how shared the CPU is as the run starts (1 on a quiet machine); said in the report when not 1",
  )
    .env(timeScaleEnvironmentVariable)
    .default("auto")
    .argParser((value: string): TimeScaleOption => {
      if (value.trim() === "auto") return "auto";
      const scale = /^\d+$/.test(value.trim()) ? Number(value) : Number.NaN;
      const problem = checkTimeScale(scale);
      if (problem) throw new InvalidArgumentError(`${problem}, or auto`);
      return scale;
    });
}

/** run's --repeat N: each scenario N times per subject, a varying outcome reported as flaky (report/repeat.ts). */
export function repeatOption(): Option {
  return new Option(
    "--repeat <n>",
    "run each scenario n times per subject and report how many runs passed; a scenario whose runs disagree is flaky and fails the run unless its baseline entry is strict: false (default 1)",
  ).argParser((value: string) => {
    const number = Number(value);
    if (!/^\d+$/.test(value.trim()) || number < 1 || number > 1000)
      throw new InvalidArgumentError("expected a whole number of runs per scenario, 1 to 1000");
    return number;
  });
}
