// The command line: each command registers itself from its own module (run-command.ts, suite-commands.ts,
// ...; see docs/using.md). Exit status (its table, tested end to end in test/conformance/cli/cli.test.ts):
// 0 when nothing unexpected happened, 1 when a scenario failed unexpectedly or a baseline entry went
// stale, 2 on bad input (lint errors, a usage error, an unreadable file).
import { pathToFileURL } from "node:url";
import { Command, CommanderError } from "commander";
import { toolnexusSuite } from "../suite/toolnexus.ts";
import { registerDiffCommand } from "./diff-command.ts";
import { registerObtainableCommand } from "./obtainable-command.ts";
import { cleanUpOnInterrupt } from "../common/interrupt.ts";
import { applyEnvironment } from "../common/environment.ts";
import { removeLiveTempDirs } from "../engine/temp-dirs.ts";
import { killLiveProcessGroups } from "../common/process-group.ts";
import { registerSmokeCommand } from "./smoke.ts";
import { registerCaptureCommands } from "../capture/cli.ts";
import { registerHistoryCommand } from "./history.ts";
import { registerBaselineCommand } from "./baseline-command.ts";
import { registerMergeCommand } from "./merge-command.ts";
import { registerRunCommand } from "./run-command.ts";
import { registerLintCommand, registerListCommand } from "./suite-commands.ts";
import { commandTypo, throwUsageErrors, usageHint } from "./usage.ts";
import { UsageError } from "../common/usage-error.ts";

export function buildProgram(): Command {
  const program = new Command("conformance").description("Behavioural conformance harness for the toolnexus contract");

  registerRunCommand(program);
  registerListCommand(program);
  registerLintCommand(program);
  registerSmokeCommand(program);
  registerMergeCommand(program);
  registerCaptureCommands(program);
  registerHistoryCommand(program);
  registerBaselineCommand(program);
  registerDiffCommand(program);
  registerObtainableCommand(program);
  throwUsageErrors(program);
  return program;
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
