// Time from abort to rejection of an MCP load stuck on a hung server (HTTP and stdio), and what the
// load left behind 200 ms after the abort (open connections to the hung HTTP server, live children of
// the hung stdio server: the fixtures' own snapshots). In-process: the reference's createToolkit with
// an AbortController, the abort timed here. Through a runner: toolkit.create with abortAfterMs, the
// abort-to-rejection time taken as the runner's elapsedMs minus abortAfterMs (the runner's clock).
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fixtureKinds } from "../../fixtures/registry.ts";
import type { FixtureInstance } from "../../conformance/scenario/fixture.ts";
import { createToolkit } from "../../reference/index.ts";
import { startRunnerSubject } from "../../conformance/subjects/runner.ts";
import type { Subject } from "../../conformance/subjects/subject.ts";
import { summarize } from "../lib/stats.ts";
import type { Row } from "../lib/table.ts";
import { inProcess, unavailableRows, type BenchContext } from "./context.ts";

/** The load is aborted this long after it starts: well inside the handshake the hung server never answers. */
export const abortAfterMs = 150;
/** Leftovers are counted this long after the abort. */
export const settleMs = 200;
/** A safety net far above the abort: a load that ignores the signal ends here, as a MISS, not a hang. */
const serverTimeoutMs = 2_500;
const sampleBoundMs = 10_000;

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

interface AbortSample {
  /** Abort to rejection, ms. */
  rejectMs: number;
  /** The error was the caller's cancellation (not a timeout or a built toolkit). */
  cancelled: boolean;
  /** Connections (HTTP) or processes (stdio) the load opened that were still there settleMs after the abort. */
  left: number;
  /** The load had reached the server before the abort (else the sample measures nothing). */
  reached: boolean;
}

type FixtureName = "mcp-hung-http" | "mcp-hung-stdio";

async function withFixture<T>(kind: FixtureName, body: (fixture: FixtureInstance) => Promise<T>): Promise<T> {
  const workDir = await mkdtemp(join(tmpdir(), "tnc-bench-"));
  const fixture = await fixtureKinds.get(kind)!.start({ server: { timeout: serverTimeoutMs } }, { scenarioId: "bench.abort", workDir });
  try {
    return await body(fixture);
  } finally {
    await fixture.stop();
    await rm(workDir, { recursive: true, force: true });
  }
}

async function leftovers(kind: FixtureName, fixture: FixtureInstance): Promise<{ left: number; reached: boolean }> {
  const snapshot = (await fixture.snapshot()) as {
    connections: { open: number; total: number };
    processes: { started: number[]; alive: number[] };
  };
  return kind === "mcp-hung-http"
    ? { left: snapshot.connections.open, reached: snapshot.connections.total > 0 }
    : { left: snapshot.processes.alive.length, reached: snapshot.processes.started.length > 0 };
}

function bounded<T>(work: Promise<T>, what: string): Promise<T> {
  let timer: NodeJS.Timeout;
  const limit = new Promise<never>(
    (_, reject) => (timer = setTimeout(() => reject(new Error(`${what} did not settle within ${sampleBoundMs} ms`)), sampleBoundMs)),
  );
  return Promise.race([work, limit]).finally(() => clearTimeout(timer));
}

/** One aborted load through the reference's own API. */
async function inProcessSample(kind: FixtureName): Promise<AbortSample> {
  return withFixture(kind, async (fixture) => {
    const controller = new AbortController();
    let abortedAt = 0;
    const timer = setTimeout(() => {
      abortedAt = performance.now();
      controller.abort();
    }, abortAfterMs);
    let rejectedAt = 0;
    let cancelled = false;
    try {
      const toolkit = await bounded(
        createToolkit({
          mcpConfig: fixture.vars.config as Record<string, unknown>,
          signal: controller.signal,
          logger: { warn: () => undefined },
        }),
        "createToolkit",
      );
      rejectedAt = performance.now();
      await toolkit.close();
    } catch (error) {
      rejectedAt = performance.now();
      cancelled = error instanceof Error && /Cancelled|Abort/i.test(error.name);
    } finally {
      clearTimeout(timer);
    }
    const rejectMs = abortedAt ? rejectedAt - abortedAt : Number.NaN;
    await sleep(Math.max(0, settleMs - (performance.now() - (abortedAt || rejectedAt))));
    return { rejectMs, cancelled, ...(await leftovers(kind, fixture)) };
  });
}

/** One aborted load through a runner: toolkit.create with abortAfterMs. */
async function runnerSample(subject: Subject, kind: FixtureName): Promise<AbortSample> {
  return withFixture(kind, async (fixture) => {
    const outcome = await subject.execute(
      "toolkit.create",
      { handle: "bench", mcpConfig: fixture.vars.config, abortAfterMs },
      { timeoutMs: sampleBoundMs },
    );
    const answeredAt = performance.now();
    const rejectMs = outcome.elapsedMs - abortAfterMs;
    const cancelled = !outcome.ok && outcome.error.kind === "cancelled";
    // The abort happened (by the runner's clock) rejectMs before the answer arrived.
    await sleep(Math.max(0, settleMs - Math.max(0, rejectMs) - (performance.now() - answeredAt)));
    const seen = await leftovers(kind, fixture);
    await subject.reset({ timeoutMs: sampleBoundMs });
    return { rejectMs, cancelled, ...seen };
  });
}

const fixtures: { kind: FixtureName; label: string }[] = [
  { kind: "mcp-hung-http", label: "hung HTTP" },
  { kind: "mcp-hung-stdio", label: "hung stdio" },
];

function rowsFor(subject: string, label: string, samples: AbortSample[], planned: number): Row[] {
  const notCancelled = samples.filter((sample) => !sample.cancelled).length;
  const notReached = samples.filter((sample) => !sample.reached).length;
  const odd = [
    samples.length < planned ? `stopped after ${samples.length}: the abort is not honoured` : "",
    notCancelled ? `${notCancelled} not rejected as cancelled` : "",
    notReached ? `${notReached} had not reached the server at the abort` : "",
  ]
    .filter(Boolean)
    .join(", ");
  return [
    {
      group: "abort",
      figure: `MCP load abort -> rejection, ${label}`,
      subject,
      unit: "ms",
      summary: summarize(samples.map((sample) => sample.rejectMs)),
      target: { stat: "p95", op: "<=", value: 100 },
      note:
        `load aborted ${abortAfterMs} ms after it started (server timeout ${serverTimeoutMs} ms), ` +
        `${samples.length} samples${odd ? `; ${odd}` : ""}${subject === inProcess ? "" : " (runner's elapsedMs - abortAfterMs)"}`,
    },
    {
      group: "abort",
      figure: `${label === "hung HTTP" ? "sockets" : "processes"} left ${settleMs} ms after abort, ${label}`,
      subject,
      unit: "count",
      summary: summarize(samples.map((sample) => sample.left)),
      target: { stat: "max", op: "<=", value: 0 },
    },
  ];
}

export async function measureAbort(context: BenchContext): Promise<Row[]> {
  const { options, log } = context;
  // A subject whose first samples all ignore the abort is not sampled further: each costs the server timeout.
  const giveUpAfter = Math.min(options.abortSamples, options.quick ? 1 : 3);
  const rows: Row[] = [];
  for (const { kind, label } of fixtures) {
    const samples: AbortSample[] = [];
    for (let index = 0; index < options.abortSamples; index++) {
      samples.push(await inProcessSample(kind));
      if (samples.length === giveUpAfter && samples.every((sample) => !sample.cancelled)) break;
    }
    log(`abort ${label} ${inProcess}: median ${summarize(samples.map((s) => s.rejectMs)).median.toFixed(2)} ms`);
    rows.push(...rowsFor(inProcess, label, samples, options.abortSamples));
  }
  for (const runner of context.runners) {
    if (!runner.available) {
      rows.push(...unavailableRows("abort", [{ figure: "MCP load abort -> rejection", unit: "ms" }], runner));
      continue;
    }
    const subject = await startRunnerSubject(runner.spec);
    try {
      for (const { kind, label } of fixtures) {
        const samples: AbortSample[] = [];
        for (let index = 0; index < options.abortSamples; index++) {
          samples.push(await runnerSample(subject, kind));
          if (samples.length === giveUpAfter && samples.every((sample) => !sample.cancelled)) break;
        }
        log(`abort ${label} ${runner.name}: median ${summarize(samples.map((s) => s.rejectMs)).median.toFixed(2)} ms`);
        rows.push(...rowsFor(runner.name, label, samples, options.abortSamples));
      }
    } finally {
      await subject.close();
    }
  }
  return rows;
}
