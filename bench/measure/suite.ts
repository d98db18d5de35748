// Whole-suite wall time per subject, with `--jobs 1` and with the default lanes side by side (and their
// ratio), the ts runner's ratio to in-process, and the suite's peak memory. Each sample is a fresh
// child process (bench/child/run-suite.ts) timing itself from subject start to subject close, so every
// subject starts equally cold; the (subject, jobs) pairs take turns within an iteration (rotating
// order), and ratios are taken within an iteration, never across.
import { runChild } from "../lib/child.ts";
import { pairedRatios, summarize } from "../lib/stats.ts";
import type { Row } from "../lib/table.ts";
import { inProcess, unavailableRows, type BenchContext } from "./context.ts";
import type { RunnerSpec } from "../../conformance/subjects/runner.ts";
import { defaultJobs } from "../../conformance/subjects/pool.ts";
import type { ResultSignature } from "../../conformance/report/comparable.ts";

export interface SuiteSample {
  scenarios: number;
  counts: Record<string, number>;
  unexpected: string[];
  startMs: number;
  wallMs: number;
  maxRssKb: number;
  runnerPeakRssKb?: number;
  restarts?: number;
  signatures: ResultSignature[];
  /** The time scale the child ran at, when not 1 (its input's timeScale: auto, or a number). */
  timeScale?: number;
}

interface Subject {
  name: string;
  spec?: RunnerSpec;
  baseline?: string;
}

const childTimeoutMs = 10 * 60_000;

/** The whole suite's wall-time targets at the default --jobs (issue 25): the reference's, and any port's. */
const wholeSuiteTargetS = (subject: string) => (subject === inProcess ? 30 : 60);
/** `--jobs 1` over the default: the waits overlapped must pay for the lanes. */
const jobsRatioTarget = 3;

/** A sample's key: subject and lanes. */
const keyOf = (name: string, jobs: number) => `${name} --jobs ${jobs}`;

async function sampleSuites(
  context: BenchContext,
  subjects: Subject[],
  jobsSettings: number[],
): Promise<{ samples: Map<string, (SuiteSample | undefined)[]>; problems: Map<string, string> }> {
  const { options, log } = context;
  const turns = subjects.flatMap((subject) => jobsSettings.map((jobs) => ({ subject, jobs, key: keyOf(subject.name, jobs) })));
  const samples = new Map<string, (SuiteSample | undefined)[]>(turns.map(({ key }) => [key, []]));
  const problems = new Map<string, string>();
  for (let run = 0; run < options.runs; run++) {
    for (let turn = 0; turn < turns.length; turn++) {
      const { subject, jobs, key } = turns[(run + turn) % turns.length];
      const common = { every: options.suiteEvery, maxScenarioMs: options.suiteMaxScenarioMs, jobs };
      const arg = subject.spec
        ? { subject: "runner", spec: subject.spec, baseline: subject.baseline, ...common }
        : { subject: "reference", ...common };
      try {
        const { result } = await runChild<SuiteSample>("child/run-suite.ts", arg, childTimeoutMs);
        samples.get(key)![run] = result;
        const odd = result.unexpected.length ? `, ${result.unexpected.length} unexpected` : "";
        log(
          `suite ${run + 1}/${options.runs} ${key}: ${(result.wallMs / 1000).toFixed(2)} s, ${result.scenarios} scenarios${odd}, rss ${Math.round(result.maxRssKb / 1024)} MB`,
        );
        if (result.unexpected.length) problems.set(key, `unexpected results, e.g. ${result.unexpected[0]}`);
      } catch (error) {
        samples.get(key)![run] = undefined;
        const message = error instanceof Error ? error.message : String(error);
        problems.set(key, message);
        log(`suite ${run + 1}/${options.runs} ${key}: FAILED ${message.split("\n")[0]}`);
      }
    }
  }
  return { samples, problems };
}

/** pass/fail/error/skip of one sample: what the subject's suite run ended with. */
function statusCounts(sample: SuiteSample | undefined): string {
  if (!sample) return "no sample";
  return ["pass", "fail", "error", "skip"].map((status) => `${sample.counts[status] ?? 0} ${status}`).join(", ");
}

/** Scenarios whose status, outcome or failed checks differ between two samples (of one run): --jobs must change none. */
export function differingScenarios(one: SuiteSample | undefined, other: SuiteSample | undefined): string[] {
  if (!one || !other) return [];
  const theirs = new Map(other.signatures.map((signature) => [signature.scenario, JSON.stringify(signature)]));
  const differing = one.signatures
    .filter((signature) => theirs.get(signature.scenario) !== JSON.stringify(signature))
    .map((signature) => signature.scenario);
  return one.signatures.length === other.signatures.length
    ? differing
    : [...differing, `(${one.signatures.length} results vs ${other.signatures.length})`];
}

const defined = <T>(values: (T | undefined)[]): T[] => values.filter((value): value is T => value !== undefined);
const mb = (kb: number) => kb / 1024;

export async function measureSuite(context: BenchContext): Promise<Row[]> {
  const { options } = context;
  const wantSuite = options.only.has("suite");
  const wantMemory = options.only.has("memory");
  const runners = wantSuite ? context.runners : [];
  const subjects: Subject[] = [
    { name: inProcess },
    ...runners.flatMap((runner) => (runner.available ? [{ name: runner.name, spec: runner.spec, baseline: runner.baseline }] : [])),
  ];
  const lanes = defaultJobs();
  // The memory row alone needs only the default (what `run` does); the suite row compares both.
  const jobsSettings = wantSuite ? [1, lanes] : [lanes];
  const { samples, problems } = await sampleSuites(context, subjects, jobsSettings);
  const rows: Row[] = [];
  const reference = samples.get(keyOf(inProcess, 1)) ?? [];
  const slice =
    options.suiteEvery > 1
      ? ` (every ${options.suiteEvery}th scenario${options.suiteMaxScenarioMs ? ` of those recorded at most ${options.suiteMaxScenarioMs / 1000} s` : ""})`
      : "";
  const wallsOf = (key: string) => (samples.get(key) ?? []).map((sample) => sample?.wallMs ?? Number.NaN);

  if (wantSuite) {
    for (const subject of subjects) {
      for (const jobs of jobsSettings) {
        const key = keyOf(subject.name, jobs);
        const mine = samples.get(key)!;
        const problem = problems.get(key);
        rows.push({
          group: "suite",
          figure: `suite wall time, --jobs ${jobs}${slice}`,
          subject: subject.name,
          unit: "s",
          summary: summarize(wallsOf(key).map((ms) => ms / 1000)),
          // A slice's time says nothing against a whole-suite target.
          target: jobs === lanes && !slice ? { stat: "median", op: "<=", value: wholeSuiteTargetS(subject.name) } : undefined,
          note:
            `${defined(mine)[0]?.scenarios ?? "?"} scenarios (${statusCounts(defined(mine)[0])}), one fresh child process per sample, ` +
            `timed from subject start to close${problem ? `; ${key}: ${problem.split("\n")[0]}` : ""}`,
        });
      }
      rows.push({
        group: "suite",
        figure: `suite wall time, --jobs 1 / --jobs ${lanes}${slice}`,
        subject: subject.name,
        unit: "x",
        summary: summarize(pairedRatios(wallsOf(keyOf(subject.name, 1)), wallsOf(keyOf(subject.name, lanes)))),
        target: !slice ? { stat: "median", op: ">=", value: jobsRatioTarget } : undefined,
        note: `the default --jobs here is ${lanes} (four per core, 2 to 8)`,
      });
      const serial = samples.get(keyOf(subject.name, 1))!;
      const laned = samples.get(keyOf(subject.name, lanes))!;
      const differing = serial.map((sample, run) => differingScenarios(sample, laned[run]));
      const compared = serial.filter((sample, run) => sample && laned[run]).length;
      rows.push({
        group: "suite",
        figure: `scenarios whose result differs, --jobs 1 vs --jobs ${lanes}${slice}`,
        subject: subject.name,
        unit: "n",
        summary: summarize(serial.flatMap((sample, run) => (sample && laned[run] ? [differing[run].length] : []))),
        target: { stat: "max", op: "<=", value: 0 },
        note: `status, outcome and failed checks of every scenario (report/comparable.ts), compared within each of ${compared} runs${differing.flat().length ? `; differing: ${[...new Set(differing.flat())].slice(0, 5).join(", ")}` : ""}`,
      });
      const mine = serial;
      const walls = wallsOf(keyOf(subject.name, 1));
      if (subject.spec) {
        const ratios = pairedRatios(
          walls,
          reference.map((sample) => sample?.wallMs ?? Number.NaN),
        );
        rows.push({
          group: "suite",
          figure: "suite wall time / in-process, --jobs 1",
          subject: subject.name,
          unit: "x",
          summary: summarize(ratios),
          target: subject.name === "ts" ? { stat: "median", op: "<=", value: 1.5 } : undefined,
        });
        rows.push({
          group: "suite",
          figure: "runner start (spawn + handshake)",
          subject: subject.name,
          unit: "ms",
          summary: summarize(defined(mine).map((sample) => sample.startMs)),
        });
        rows.push({
          group: "suite",
          figure: "runner peak RSS during the suite",
          subject: subject.name,
          unit: "MB",
          summary: summarize(defined(mine).flatMap((sample) => (sample.runnerPeakRssKb ? [mb(sample.runnerPeakRssKb)] : []))),
        });
      }
    }
    for (const runner of context.runners) {
      if (!runner.available)
        rows.push(...unavailableRows("suite", [{ figure: `suite wall time, --jobs 1 / --jobs ${lanes}`, unit: "x" }], runner));
    }
  }
  if (wantMemory) {
    rows.push({
      group: "memory",
      figure: `peak RSS, whole suite in-process, --jobs ${lanes}${slice}`,
      subject: inProcess,
      unit: "MB",
      summary: summarize(defined(samples.get(keyOf(inProcess, lanes)) ?? []).map((sample) => mb(sample.maxRssKb))),
      target: { stat: "max", op: "<=", value: 300 },
      note: `process.resourceUsage().maxRSS of a child that runs lint + the suite against ${lanes} in-process reference lanes (fixtures included)`,
    });
  }
  return rows;
}
