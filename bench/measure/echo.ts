// No-op protocol round trips per second: `runner.echo` through Subject.execute, one request at a time
// (the protocol is strictly request/answer), so each round trip is the harness's write + schema check
// + the runner's parse, dispatch and answer. The in-process reference is the floor of the same call.
import { createReferenceSubject } from "../../conformance/subjects/reference/index.ts";
import { startRunnerSubject } from "../../conformance/subjects/runner.ts";
import type { Subject } from "../../conformance/subjects/subject.ts";
import { pairedRatios, summarize } from "../lib/stats.ts";
import type { Row } from "../lib/table.ts";
import { inProcess, unavailableRows, type BenchContext } from "./context.ts";
import { startPipeEcho } from "./pipe-floor.ts";

const opTimeout = { timeoutMs: 5_000 };
const warmup = 300;

/** Round trips per second over `count` sequential echoes. */
export async function echoRate(subject: Subject, count: number): Promise<number> {
  const value = { n: 0, s: "ping" };
  const started = performance.now();
  for (let index = 0; index < count; index++) {
    value.n = index;
    const outcome = await subject.execute("runner.echo", { value }, opTimeout);
    if (!outcome.ok) throw new Error(`runner.echo failed: ${outcome.error.message}`);
  }
  return count / ((performance.now() - started) / 1000);
}

export async function measureEcho(context: BenchContext): Promise<Row[]> {
  const { options, log } = context;
  const pipe = startPipeEcho();
  const floor: Subject = {
    info: { name: "pipe floor", language: "-", package: "-", version: "-", capabilities: [] },
    execute: async () => ({ ok: true, value: {}, elapsedMs: 0 }),
    reset: async () => undefined,
    close: () => pipe.close(),
  };
  const subjects: { name: string; subject: Subject; count: number; rate?: (count: number) => Promise<number> }[] = [
    { name: inProcess, subject: createReferenceSubject(), count: options.echoCountInProcess },
    { name: "pipe floor", subject: floor, count: options.echoCount, rate: pipe.rate },
  ];
  const rows: Row[] = [];
  try {
    for (const runner of context.runners) {
      if (runner.available) subjects.push({ name: runner.name, subject: await startRunnerSubject(runner.spec), count: options.echoCount });
    }
    const measure = (entry: (typeof subjects)[number], count: number) => (entry.rate ? entry.rate(count) : echoRate(entry.subject, count));
    for (const entry of subjects) await measure(entry, warmup);
    const rates = new Map<string, number[]>(subjects.map(({ name }) => [name, []]));
    for (let run = 0; run < options.runs; run++) {
      for (let turn = 0; turn < subjects.length; turn++) {
        const entry = subjects[(run + turn) % subjects.length];
        const { name, count } = entry;
        const rate = await measure(entry, count);
        rates.get(name)!.push(rate);
        log(`echo ${run + 1}/${options.runs} ${name}: ${Math.round(rate)}/s over ${count}`);
      }
    }
    for (const { name, count } of subjects) {
      if (name === "pipe floor") {
        rows.push({
          group: "echo",
          figure: "JSON line ping-pong, bare node child",
          subject: name,
          unit: "/s",
          summary: summarize(rates.get(name)!),
          note: "the OS floor: a node child that only writes each line back (bench/child/pipe-echo.mjs); no JSON parse, no schema check",
        });
        continue;
      }
      rows.push({
        group: "echo",
        figure: "runner.echo round trips",
        subject: name,
        unit: "/s",
        summary: summarize(rates.get(name)!),
        target: name === "ts" ? { stat: "median", op: ">=", value: 5_000 } : undefined,
        note:
          name === inProcess
            ? `${count} sequential echoes per sample (in-process: ${options.echoCountInProcess}; runners: ${options.echoCount}), after ${warmup} warm-up`
            : undefined,
      });
    }
    // Paired with the floor measured in the same iteration: robust to the machine's load of the moment.
    const floorRates = rates.get("pipe floor")!;
    for (const { name } of subjects) {
      if (name === inProcess || name === "pipe floor") continue;
      rows.push({
        group: "echo",
        figure: "round trips / pipe floor",
        subject: name,
        unit: "x",
        summary: summarize(pairedRatios(rates.get(name)!, floorRates)),
      });
    }
    for (const runner of context.runners) {
      if (!runner.available) rows.push(...unavailableRows("echo", [{ figure: "runner.echo round trips", unit: "/s" }], runner));
    }
  } finally {
    await Promise.all(subjects.map(({ subject }) => subject.close()));
  }
  return rows;
}
