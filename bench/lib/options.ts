// Command-line flags of `npm run bench` and the sample sizes they imply.
import { parseArgs } from "node:util";
import { sourceEnvironmentVariable, type PortSourceChoice } from "../../conformance/subjects/port-source.ts";

export const groups = ["suite", "echo", "abort", "mcp-load", "fixture-start", "client", "memory", "steadiness", "vitest"] as const;
export type Group = (typeof groups)[number];

export interface BenchOptions {
  quick: boolean;
  /** Iterations per figure (each a side-by-side sample); at least 5 for a real run. */
  runs: number;
  only: Set<Group>;
  /** Every n-th scenario of the suite (1 = the whole suite); --quick uses a slice. */
  suiteEvery: number;
  /** The longest scenario (ms, as recorded) a suite sample takes; undefined: any. */
  suiteMaxScenarioMs?: number;
  /** Echo round trips per sample, through a runner and in-process. */
  echoCount: number;
  echoCountInProcess: number;
  /** Aborted loads per fixture and subject (the p95 needs more than 5). */
  abortSamples: number;
  /** 1-server/8-server load pairs per run. */
  loadPairsPerRun: number;
  /** Client turns (and as many bare fetches) per run. */
  turnsPerRun: number;
  outDir: string | undefined;
  /** A port source checkout: each runner that can build from it is measured from source too. */
  source: PortSourceChoice | undefined;
  /** Only these runners (folder names under runners/), beside the in-process reference; empty: every runner. */
  runners: string[];
  /** A vitest JSON report to read instead of running the tests (npm test writes one). */
  vitestReport: string | undefined;
  /** A commit whose tests run in turn with this checkout's: the after / before ratio. */
  vitestBefore: string | undefined;
  help: boolean;
}

export class UsageError extends Error {}

function sourceOption(given: string | undefined): PortSourceChoice | undefined {
  const dir = given || process.env[sourceEnvironmentVariable];
  return dir ? { dir } : undefined;
}

export const usage = `usage: npm run bench -- [--quick] [--runs N] [--only ROW[,ROW...]] [--out DIR]
  --quick     CI: 1 iteration, small counts, a slice of the suite; proves it runs, same rows
  --runs N    iterations per figure (default 5; --quick: 1)
  --only ROW  only these measurement groups: ${groups.join(", ")} (repeatable or comma-separated)
  --out DIR   where the JSON goes (default bench/results/)
  --source DIR  also measure each port built from this checkout (default: $TOOLNEXUS_SOURCE)
  --runner NAME only this runner beside the in-process reference (repeatable or comma-separated, e.g. python,ts)
  --vitest-report FILE  the vitest rows from this JSON report instead of a test run (--quick reads only a report)
  --vitest-before REF   also run the tests of this commit, in turn with this checkout's: the after / before ratio`;

/** A repeatable flag whose values may also be comma-separated: `--only a,b --only c`. */
function commaList(values: string[] | undefined): string[] {
  return (values ?? [])
    .flatMap((value) => value.split(","))
    .map((value) => value.trim())
    .filter(Boolean);
}

export function parseOptions(argv: readonly string[]): BenchOptions {
  let parsed;
  try {
    parsed = parseArgs({
      args: [...argv],
      options: {
        quick: { type: "boolean", default: false },
        runs: { type: "string" },
        only: { type: "string", multiple: true },
        out: { type: "string" },
        source: { type: "string" },
        runner: { type: "string", multiple: true },
        "vitest-report": { type: "string" },
        "vitest-before": { type: "string" },
        help: { type: "boolean", short: "h", default: false },
      },
      allowPositionals: false,
      strict: true,
    });
  } catch (error) {
    throw new UsageError((error as Error).message);
  }
  const { values } = parsed;
  const quick = values.quick ?? false;
  let runs = quick ? 1 : 5;
  if (values.runs !== undefined) {
    if (!/^\d+$/.test(values.runs) || Number(values.runs) < 1)
      throw new UsageError(`--runs must be a positive integer, not "${values.runs}"`);
    runs = Number(values.runs);
  }
  const requested = commaList(values.only);
  const unknown = requested.filter((value) => !(groups as readonly string[]).includes(value));
  if (unknown.length) throw new UsageError(`unknown --only ${unknown.join(", ")}; rows: ${groups.join(", ")}`);
  return {
    quick,
    runs,
    only: new Set((requested.length ? requested : groups) as Group[]),
    // --quick proves the suite row runs; the conformance job runs every scenario on every subject anyway.
    suiteEvery: quick ? 24 : 1,
    // ... and its sample leaves out the scenarios recorded over 2 s, whose waits (9 s calls, 20 s
    // closes) would make the quick row cost minutes while proving nothing more.
    suiteMaxScenarioMs: quick ? 2_000 : undefined,
    echoCount: quick ? 1_000 : 5_000,
    echoCountInProcess: quick ? 10_000 : 100_000,
    abortSamples: quick ? 3 : Math.max(20, runs * 4),
    loadPairsPerRun: quick ? 1 : 3,
    turnsPerRun: quick ? 10 : 40,
    outDir: values.out,
    source: sourceOption(values.source),
    runners: commaList(values.runner),
    vitestReport: values["vitest-report"],
    vitestBefore: values["vitest-before"],
    help: values.help ?? false,
  };
}
