// Child process of the suite and memory rows: runs the whole suite (or every n-th scenario) against
// one subject, exactly as `npm run conformance` does, and prints one line
//   BENCH-RESULT {"wallMs":..., "startMs":..., "maxRssKb":..., ...}
// A fresh process per sample, so the in-process reference and the runner start equally cold, and
// maxRSS covers one suite run only. Usage: tsx bench/child/run-suite.ts '<json>'
//   {"subject": "reference"} | {"subject": "runner", "spec": RunnerSpec, "baseline": FILE}, plus "every": n
//   and "jobs": n (lanes, as `run --jobs n`; default 1), "timeScale": n or "auto" (as `run --time-scale`; default 1)
import { toolnexusDurationsFile, toolnexusSuite } from "../../conformance/suite/toolnexus.ts";
import { applyEnvironment } from "../../conformance/common/environment.ts";
import { durationWeight, loadDurationTable } from "../../conformance/report/durations.ts";
import { waitWeight } from "../../conformance/engine/schedule.ts";
import { resultSignature, type ResultSignature } from "../../conformance/report/comparable.ts";
import { readFileSync } from "node:fs";
import { defaultScenarioDir } from "../../conformance/scenario/scenario-id.ts";
import { runSuite } from "../../conformance/run/suite.ts";
import { chooseTimeScale, type TimeScaleOption } from "../../conformance/run/time-scale-choice.ts";
import { loadBaseline } from "../../conformance/report/baseline.ts";
import { lintPaths } from "../../conformance/scenario/lint.ts";
import { createReferenceSubject } from "../../conformance/subjects/reference/index.ts";
import { startRunnerSubject, type RunnerSpec, type RunnerSubject } from "../../conformance/subjects/runner.ts";
import type { Subject } from "../../conformance/subjects/subject.ts";
import { closeLanes, openLanes, runnerLanes } from "../../conformance/subjects/pool.ts";

const resultMarker = "BENCH-RESULT "; // read by bench/lib/child.ts

interface ChildInput {
  subject: "reference" | "runner";
  spec?: RunnerSpec;
  /** The runner subject's expected-failures file. */
  baseline?: string;
  every?: number;
  /** Leave out scenarios expected to take longer (ms, by the duration table): a sample that proves the row runs needs no 20 s scenario. */
  maxScenarioMs?: number;
  jobs?: number;
  /** As `run --time-scale`: a whole number, or "auto"; default 1 (the files' own times). */
  timeScale?: TimeScaleOption;
}

/** Peak resident set of another process (kB), from /proc; undefined where there is no /proc. */
function peakRssKb(pid: number | undefined): number | undefined {
  if (pid === undefined) return undefined;
  try {
    const match = /VmHWM:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, "utf8"));
    return match ? Number(match[1]) : undefined;
  } catch {
    return undefined;
  }
}

async function main(): Promise<void> {
  const input = JSON.parse(process.argv[2] ?? "{}") as ChildInput;
  // The reference and the fixtures log warnings; the parent reads stdout for the result line only.
  console.log = console.error;
  console.warn = () => undefined;
  const lint = await lintPaths([defaultScenarioDir], toolnexusSuite);
  if (lint.diagnostics.length) throw new Error(`lint found ${lint.diagnostics.length} problems; run npm run conformance -- lint`);
  // As `run` orders them: the longest (as recorded for this subject) first.
  const weight = durationWeight(
    await loadDurationTable(toolnexusDurationsFile),
    input.subject === "runner" ? input.spec!.name : "reference",
    waitWeight,
  );
  const every = Math.max(1, input.every ?? 1);
  const short = lint.expanded.filter((scenario) => input.maxScenarioMs === undefined || weight(scenario) <= input.maxScenarioMs);
  const scenarios = short.filter((_, index) => index % every === 0);
  const chosen = await chooseTimeScale(input.timeScale ?? 1);

  const jobs = Math.max(1, input.jobs ?? 1);
  applyEnvironment(toolnexusSuite.environment);
  const started = performance.now();
  let lanes: Subject[];
  if (input.subject === "runner") {
    if (!input.spec) throw new Error("runner subject without a spec");
    lanes = await runnerLanes(await startRunnerSubject(input.spec), jobs, console.error);
  } else {
    lanes = await openLanes(createReferenceSubject(), jobs, async () => createReferenceSubject(), console.error);
  }
  if (lanes.length !== jobs) throw new Error(`${jobs} lanes asked for, ${lanes.length} started`);
  const subject = lanes[0];
  const opened = performance.now();
  const runnerPeak = () => peakRssKb((subject as Partial<RunnerSubject>).pid);
  let runnerPeakKb: number | undefined;
  let results;
  try {
    // A port's known divergences (its baseline) are not "unexpected" here either.
    const baseline = input.subject === "runner" && input.baseline ? await loadBaseline(input.baseline) : new Map();
    results = await runSuite(scenarios, lanes, {
      fixtureKinds: toolnexusSuite.fixtureKinds,
      timeScale: chosen && { chosen, keys: toolnexusSuite.timeKeys },
      baseline,
      weight,
      onResult: () => {
        runnerPeakKb = Math.max(runnerPeakKb ?? 0, runnerPeak() ?? 0) || undefined;
      },
    });
  } finally {
    await closeLanes(lanes);
  }
  const finished = performance.now();
  const counts: Record<string, number> = {};
  for (const result of results) counts[result.status] = (counts[result.status] ?? 0) + 1;
  const unexpected = results.filter((result) => result.outcome !== "as-expected").map((result) => `${result.scenario}: ${result.message}`);
  const line = {
    scenarios: scenarios.length,
    counts,
    unexpected: unexpected.slice(0, 10),
    // What --jobs must not change (report/comparable.ts): the parent compares --jobs 1 with the default.
    signatures: results.map(resultSignature) satisfies ResultSignature[],
    startMs: opened - started,
    wallMs: finished - started,
    // process.resourceUsage().maxRSS is in kilobytes: the harness and, in-process, the reference.
    maxRssKb: process.resourceUsage().maxRSS,
    runnerPeakRssKb: runnerPeakKb,
    ...(chosen ? { timeScale: chosen.scale } : {}),
    restarts: lanes.reduce((sum, lane) => sum + ((lane as Partial<RunnerSubject>).restarts ?? 0), 0) || undefined,
  };
  process.stdout.write(`${resultMarker}${JSON.stringify(line)}\n`);
}

main().then(
  () => process.exit(0),
  (error: unknown) => {
    console.error(error instanceof Error ? (error.stack ?? error.message) : String(error));
    process.exit(1);
  },
);
