// Whole-suite wall time per subject (and the ts runner's ratio to in-process), and the suite's peak
// memory. Each sample is a fresh child process (bench/child/run-suite.ts) timing itself from subject
// start to subject close, so every subject starts equally cold; the subjects take turns within an
// iteration (rotating order), and ratios are taken within an iteration, never across.
import { runChild } from "../lib/child.ts";
import { pairedRatios, summarize } from "../lib/stats.ts";
import type { Row } from "../lib/table.ts";
import { inProcess, unavailableRows, type BenchContext } from "./context.ts";
import type { RunnerSpec } from "../../conformance/subjects/runner.ts";

interface SuiteSample {
  scenarios: number;
  counts: Record<string, number>;
  unexpected: string[];
  startMs: number;
  wallMs: number;
  maxRssKb: number;
  runnerPeakRssKb?: number;
  restarts?: number;
}

interface Subject {
  name: string;
  spec?: RunnerSpec;
  baseline?: string;
}

const childTimeoutMs = 10 * 60_000;

async function sampleSuites(context: BenchContext, subjects: Subject[]): Promise<{ samples: Map<string, (SuiteSample | undefined)[]>; problems: Map<string, string> }> {
  const { options, log } = context;
  const samples = new Map<string, (SuiteSample | undefined)[]>(subjects.map((subject) => [subject.name, []]));
  const problems = new Map<string, string>();
  for (let run = 0; run < options.runs; run++) {
    for (let turn = 0; turn < subjects.length; turn++) {
      const subject = subjects[(run + turn) % subjects.length];
      const arg = subject.spec ? { subject: "runner", spec: subject.spec, baseline: subject.baseline, every: options.suiteEvery } : { subject: "reference", every: options.suiteEvery };
      try {
        const { result } = await runChild<SuiteSample>("child/run-suite.ts", arg, childTimeoutMs);
        samples.get(subject.name)![run] = result;
        const odd = result.unexpected.length ? `, ${result.unexpected.length} unexpected` : "";
        log(`suite ${run + 1}/${options.runs} ${subject.name}: ${(result.wallMs / 1000).toFixed(2)} s, ${result.scenarios} scenarios${odd}, rss ${Math.round(result.maxRssKb / 1024)} MB`);
        if (result.unexpected.length) problems.set(subject.name, `unexpected results, e.g. ${result.unexpected[0]}`);
      } catch (error) {
        samples.get(subject.name)![run] = undefined;
        const message = error instanceof Error ? error.message : String(error);
        problems.set(subject.name, message);
        log(`suite ${run + 1}/${options.runs} ${subject.name}: FAILED ${message.split("\n")[0]}`);
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

const defined = <T>(values: (T | undefined)[]): T[] => values.filter((value): value is T => value !== undefined);
const mb = (kb: number) => kb / 1024;

export async function measureSuite(context: BenchContext): Promise<Row[]> {
  const { options } = context;
  const wantSuite = options.only.has("suite");
  const wantMemory = options.only.has("memory");
  const runners = wantSuite ? context.runners : [];
  const subjects: Subject[] = [{ name: inProcess }, ...runners.flatMap((runner) => (runner.available ? [{ name: runner.name, spec: runner.spec, baseline: runner.baseline }] : []))];
  const { samples, problems } = await sampleSuites(context, subjects);
  const rows: Row[] = [];
  const reference = samples.get(inProcess)!;
  const slice = options.suiteEvery > 1 ? ` (every ${options.suiteEvery}th scenario)` : "";
  const scenarioCount = defined(reference)[0]?.scenarios;

  if (wantSuite) {
    for (const subject of subjects) {
      const mine = samples.get(subject.name)!;
      const walls = mine.map((sample) => sample?.wallMs ?? Number.NaN);
      const problem = problems.get(subject.name);
      rows.push({
        group: "suite",
        figure: `suite wall time${slice}`,
        subject: subject.name,
        unit: "s",
        summary: summarize(walls.map((ms) => ms / 1000)),
        note: `${scenarioCount ?? "?"} scenarios (${statusCounts(defined(mine)[0])}), one fresh child process per sample, timed from subject start to close${problem ? `; ${subject.name}: ${problem.split("\n")[0]}` : ""}`,
      });
      if (subject.spec) {
        const ratios = pairedRatios(walls, reference.map((sample) => sample?.wallMs ?? Number.NaN));
        rows.push({
          group: "suite",
          figure: "suite wall time / in-process",
          subject: subject.name,
          unit: "x",
          summary: summarize(ratios),
          target: subject.name === "ts" ? { stat: "median", op: "<=", value: 1.5 } : undefined,
        });
        rows.push({ group: "suite", figure: "runner start (spawn + handshake)", subject: subject.name, unit: "ms", summary: summarize(defined(mine).map((sample) => sample.startMs)) });
        rows.push({ group: "suite", figure: "runner peak RSS during the suite", subject: subject.name, unit: "MB", summary: summarize(defined(mine).flatMap((sample) => (sample.runnerPeakRssKb ? [mb(sample.runnerPeakRssKb)] : []))) });
      }
    }
    for (const runner of context.runners) {
      if (!runner.available) rows.push(...unavailableRows("suite", [{ figure: "suite wall time / in-process", unit: "x" }], runner));
    }
  }
  if (wantMemory) {
    rows.push({
      group: "memory",
      figure: `peak RSS, whole suite in-process${slice}`,
      subject: inProcess,
      unit: "MB",
      summary: summarize(defined(reference).map((sample) => mb(sample.maxRssKb))),
      target: { stat: "max", op: "<=", value: 300 },
      note: "process.resourceUsage().maxRSS of a child that runs lint + the suite against the in-process reference (fixtures included)",
    });
  }
  return rows;
}
