// `npm run bench`: the cost figures of issue #7, each a distribution over side-by-side samples, printed
// as a table (measured vs target, PASS/MISS) and written as JSON under bench/results/.
// See bench/README.md for what each row measures and why.
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { leftoverProcesses } from "../scripts/check-leftovers.ts";
import { measureAbort } from "./measure/abort.ts";
import { measureClientTurn } from "./measure/client-turn.ts";
import type { BenchContext, Measurement } from "./measure/context.ts";
import { measureEcho } from "./measure/echo.ts";
import { measureMcpLoad } from "./measure/mcp-load.ts";
import { measureFixtureStart } from "./measure/fixture-start.ts";
import { measureSuite } from "./measure/suite.ts";
import { measureSteadiness } from "./measure/steadiness.ts";
import { measureVitest } from "./measure/vitest.ts";
import { parseOptions, usage, UsageError, type Group } from "./lib/options.ts";
import { obtainability, prepareRunner, runnerOrder, type RunnerChoice } from "./lib/runners.ts";
import { formatTable, shortReason, tally, verdict, type Row } from "./lib/table.ts";

function parentPid(pid: number): number {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    return Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1]);
  } catch {
    return -1;
  }
}

const resultsDir = fileURLToPath(new URL("./results/", import.meta.url));

/** In running order: the cheap in-process figures first, the suite children last. */
const plan: { groups: Group[]; measure: Measurement; needsRunners: boolean }[] = [
  { groups: ["echo"], measure: measureEcho, needsRunners: true },
  { groups: ["abort"], measure: measureAbort, needsRunners: true },
  { groups: ["mcp-load"], measure: measureMcpLoad, needsRunners: false },
  { groups: ["fixture-start"], measure: measureFixtureStart, needsRunners: false },
  { groups: ["client"], measure: measureClientTurn, needsRunners: false },
  { groups: ["suite", "memory"], measure: measureSuite, needsRunners: true },
  { groups: ["steadiness"], measure: measureSteadiness, needsRunners: true },
  { groups: ["vitest"], measure: measureVitest, needsRunners: false },
];

async function main(): Promise<number> {
  let options;
  try {
    options = parseOptions(process.argv.slice(2));
  } catch (error) {
    if (error instanceof UsageError) {
      console.error(`${error.message}\n${usage}`);
      return 2;
    }
    throw error;
  }
  if (options.help) {
    console.log(usage);
    return 0;
  }
  const started = Date.now();
  const before = new Set(leftoverProcesses().map(({ pid }) => pid));
  const log = (line: string) => console.error(`  ${((Date.now() - started) / 1000).toFixed(1).padStart(6)}s ${line}`);
  console.error(`bench: ${options.quick ? "--quick, " : ""}${options.runs} runs, rows: ${[...options.only].join(", ")}`);

  const steps = plan.filter((step) => step.groups.some((group) => options.only.has(group)));
  let runners: RunnerChoice[] = [];
  if (steps.some((step) => step.needsRunners)) {
    let order;
    try {
      order = await runnerOrder(options.source, options.runners);
    } catch (error) {
      if (!(error instanceof UsageError)) throw error;
      console.error(`${error.message}\n${usage}`);
      return 2;
    }
    // Installers are mostly network and back-off waits: run them side by side, before any timing.
    const decision = await obtainability();
    runners = await Promise.all(
      order.map(async ({ runner, source }) => {
        const choice = await prepareRunner(runner, log, decision, source);
        log(
          choice.available
            ? `runner ${choice.name}: ${choice.package} ${choice.version}`
            : `runner ${choice.name}: unavailable: ${shortReason(choice.reason)}`,
        );
        return choice;
      }),
    );
  }
  const context: BenchContext = { options, runners, log };
  const rows: Row[] = [];
  const failures: string[] = [];
  for (const step of steps) {
    try {
      rows.push(...(await step.measure(context)));
    } catch (error) {
      const message = error instanceof Error ? (error.stack ?? error.message) : String(error);
      failures.push(`${step.groups.join("+")}: ${message}`);
      log(`${step.groups.join("+")} FAILED: ${message}`);
    }
  }
  runners = [];

  // Ours: started during the bench, still alive, and orphaned or still our child (other engineers'
  // processes on a shared machine have parents of their own). A moment first, for exits in flight.
  await new Promise((resolve) => setTimeout(resolve, 500));
  const leftovers = leftoverProcesses().filter(({ pid }) => !before.has(pid) && [1, process.pid].includes(parentPid(pid)));
  const counts = tally(rows);
  console.log("");
  console.log(formatTable(rows));
  const notes = rows.filter((row) => row.note).map((row) => `  ${row.figure} (${row.subject}): ${row.note}`);
  if (notes.length) console.log(`\nnotes:\n${notes.join("\n")}`);
  console.log(
    `\n${counts.PASS} PASS, ${counts.MISS} MISS, ${counts.info} info, ${counts["n/a"]} unavailable; ` +
      `${((Date.now() - started) / 1000).toFixed(0)} s${options.quick ? " (--quick: proves it runs; figures are not the release figures)" : ""}`,
  );
  if (leftovers.length) console.log(`processes left running: ${leftovers.map(({ pid, command }) => `${pid} ${command}`).join("; ")}`);
  for (const failure of failures) console.log(`FAILED ${failure.split("\n")[0]}`);

  mkdirSync(options.outDir ?? resultsDir, { recursive: true });
  const stamp = new Date(started).toISOString().replace(/[:.]/g, "-");
  const document = {
    startedAt: new Date(started).toISOString(),
    durationMs: Date.now() - started,
    machine: { node: process.version, platform: process.platform, arch: process.arch, cpus: (await import("node:os")).cpus().length },
    options: { ...options, only: [...options.only] },
    runners: context.runners.map((runner) =>
      runner.available
        ? { name: runner.name, package: runner.package, version: runner.version }
        : { name: runner.name, unavailable: runner.reason },
    ),
    rows: rows.map((row) => ({ ...row, verdict: verdict(row) })),
    leftovers,
    failures,
  };
  const file = join(options.outDir ?? resultsDir, `bench-${stamp}${options.quick ? "-quick" : ""}.json`);
  writeFileSync(file, `${JSON.stringify(document, null, 2)}\n`);
  console.log(`wrote ${file}`);
  // MISS is a finding, not a crash: only a broken measurement or a leftover process fails the command.
  return failures.length || leftovers.length ? 1 : 0;
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    console.error(error);
    process.exit(1);
  },
);
