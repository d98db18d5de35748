// `smoke --runner NAME`: is the runner itself sound? Handshake, round trips, reset, an unknown
// operation, a trivial toolkit, and a clean exit. Says plainly what is wrong with the runner, before
// any scenario blames the implementation for it.
import type { Command } from "commander";
import { UsageError } from "../common/usage-error.ts";
import { sourceEnvironmentVariable, type PortSourceChoice } from "../subjects/port-source.ts";
import { sourceChoice } from "./options.ts";
import { checkRunnerNames } from "./usage.ts";
import { deepEqual } from "../scenario/json-compare.ts";
import { openRunner } from "../subjects/runner-registry.ts";
import { originOf, parseRunnerSpec } from "../subjects/runner-identity.ts";
import { RunnerUnavailableError, shellCommand, startRunnerSubject, type RunnerSubject } from "../subjects/runner.ts";

interface Check {
  name: string;
  run(subject: RunnerSubject): Promise<string | undefined>;
}

const timeout = { timeoutMs: 10_000 };
const probe = { text: 'héllo ✓ \u0000 "quoted"', list: [1, 2.5, null, true], nested: { deep: { deeper: [] } } };

const checks: Check[] = [
  {
    name: "runner.echo returns its value unchanged (unicode, NUL, nesting)",
    async run(subject) {
      const outcome = await subject.execute("runner.echo", { value: probe }, timeout);
      if (!outcome.ok) return `answered an error: ${outcome.error.message}`;
      return deepEqual(outcome.value, { value: probe }) ? undefined : `returned ${JSON.stringify(outcome.value)}`;
    },
  },
  {
    name: "ten requests in a row are answered in order",
    async run(subject) {
      for (let i = 0; i < 10; i++) {
        const outcome = await subject.execute("runner.echo", { value: i }, timeout);
        if (!outcome.ok || !deepEqual(outcome.value, { value: i })) return `request ${i} answered ${JSON.stringify(outcome)}`;
      }
      return undefined;
    },
  },
  {
    name: "session.reset is answered",
    async run(subject) {
      await subject.reset(timeout);
      return undefined;
    },
  },
  {
    name: "an unknown operation is answered with error kind `unsupported` (not a crash)",
    async run(subject) {
      const outcome = await subject.execute("smoke.no-such-operation", {}, timeout);
      return !outcome.ok && outcome.error.kind === "unsupported" ? undefined : `answered ${JSON.stringify(outcome)}`;
    },
  },
  {
    name: "a toolkit with one host tool executes it (toolkit.extra-tools)",
    async run(subject) {
      if (!subject.info.capabilities.includes("toolkit.extra-tools")) return "skipped: toolkit.extra-tools not declared";
      const created = await subject.execute("toolkit.create", { handle: "smoke", extraTools: [{ name: "echo" }] }, timeout);
      if (!created.ok) return `toolkit.create failed: ${created.error.message}`;
      const executed = await subject.execute("toolkit.execute", { toolkit: "smoke", name: "echo", args: { x: 1 } }, timeout);
      if (!executed.ok) return `toolkit.execute failed: ${executed.error.message}`;
      const value = executed.value as { output?: string; isError?: boolean };
      await subject.reset(timeout);
      return value.isError === false && deepEqual(JSON.parse(value.output ?? "null"), { x: 1 })
        ? undefined
        : `returned ${JSON.stringify(value)}`;
    },
  },
];

/** The runner a --runner value names, from wherever it says (run reads it the same way: subjects/runner-identity.ts). */
async function openRunnerSpec(spec: string, source: PortSourceChoice | undefined): Promise<RunnerSubject> {
  const pick = parseRunnerSpec(spec, source);
  return openRunner(pick.runner, console.log, originOf(pick, source));
}

export async function smoke(options: { runner?: string; runnerCommand?: string; source?: PortSourceChoice }): Promise<boolean> {
  const started = performance.now();
  let subject: RunnerSubject;
  try {
    subject = options.runner
      ? await openRunnerSpec(options.runner, options.source)
      : await startRunnerSubject({ name: "custom", command: shellCommand(options.runnerCommand!) });
  } catch (error) {
    const kind = error instanceof RunnerUnavailableError ? "unavailable" : "broken";
    console.log(`✗ start and handshake: ${kind}: ${error instanceof Error ? error.message : String(error)}`);
    return false;
  }
  const { info } = subject;
  const origin = info.build?.mode === "source" ? `, built from ${info.build.path} (${info.build.contentHash})` : "";
  console.log(
    `✓ start and handshake (${Math.round(performance.now() - started)} ms): ${info.package} ${info.version} (${info.language})${origin}`,
  );
  console.log(`  capabilities: ${info.capabilities.join(", ") || "(none)"}`);
  let sound = true;
  for (const check of checks) {
    let problem: string | undefined;
    try {
      problem = await check.run(subject);
    } catch (error) {
      const stderr = subject.drainStderr?.() ?? "";
      problem = `${error instanceof Error ? error.message : String(error)}${stderr ? `\n  stderr: ${stderr}` : ""}`;
    }
    const skipped = problem?.startsWith("skipped");
    if (problem && !skipped) sound = false;
    console.log(`${problem ? (skipped ? "-" : "✗") : "✓"} ${check.name}${problem ? `: ${problem}` : ""}`);
  }
  const closing = performance.now();
  await subject.close();
  const exitedByItself = subject.exitedOnStdinClose === true;
  const closeTime = Math.round(performance.now() - closing);
  if (!exitedByItself) sound = false;
  console.log(
    exitedByItself
      ? `✓ exits when its stdin closes (${closeTime} ms)`
      : `✗ exits when its stdin closes: still running ${closeTime} ms after stdin closed; killed`,
  );
  console.log(sound ? "the runner is sound" : "the runner itself is broken: fix the above before reading its scenario results");
  return sound;
}

export function registerSmokeCommand(program: Command): void {
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
}
