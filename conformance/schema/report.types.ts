// Generated from conformance/schema/report.schema.json by scripts/gen-types.ts. Do not edit; run `npm run gen:types`.

/**
 * This interface was referenced by `Report`'s JSON-Schema
 * via the `definition` "status".
 */
export type Status = "pass" | "fail" | "skip" | "error";

/**
 * The JSON report of one conformance run (or of several merged). See conformance/README.md#reports.
 */
export interface Report {
  version: 1;
  startedAt: string;
  finishedAt: string;
  /**
   * Which harness wrote the report; diff says so when two reports' harnesses differ.
   */
  harness?: {
    /**
     * The harness package's version (package.json), i.e. the suite's release.
     */
    version: string;
  };
  /**
   * run --repeat N: each scenario ran N times per subject (each result's repeat says how they ended). Absent for one run.
   */
  repeat?: number;
  timeScale?: TimeScale;
  shard?: {
    index: number;
    count: number;
  };
  subjects: ReportSubject[];
  results: Result[];
}
/**
 * Every time value of each scenario (its delays, timeouts and the bounds its assertions check on a time) was `scale` times what its file says, but in scenarios with `fixedTimes`. Absent at 1, the files' own times.
 */
export interface TimeScale {
  scale: number;
  /**
   * given on the command line, or chosen by --time-scale auto (the default) from how contended the CPU was at the start
   */
  chosenBy: "--time-scale" | "auto";
  /**
   * auto: the wall time a fixed busy loop took at the start over the CPU time it used (1: it had a core to itself)
   */
  cpuContention?: number;
}
/**
 * This interface was referenced by `Report`'s JSON-Schema
 * via the `definition` "subject".
 */
export interface ReportSubject {
  /**
   * The subject's identity in results and baselines: the runner name, with @source when built from a source checkout (e.g. go@source).
   */
  name: string;
  language: string;
  package: string;
  version: string;
  capabilities: string[];
  available: boolean;
  unavailableReason?: string;
  build?: Build;
  /**
   * The releases the runner says it drives (its handshake's implementation.supports).
   */
  supports?: string;
  /**
   * Scenario ids the subject's baseline lists that are not scenarios of the suite (renamed or removed). Set by a run over the whole suite, each of its shards included; run and merge fail on them.
   */
  orphanedEntries?: string[];
}
/**
 * Exactly what ran: a published package at a version, a build from a source checkout (path and content hash, and the commit when the caller gave one), the in-process reference, or an ad-hoc runner command.
 *
 * This interface was referenced by `Report`'s JSON-Schema
 * via the `definition` "build".
 */
export interface Build {
  mode: "published" | "source" | "in-process" | "command";
  /**
   * published: the pinned package as its registry spells it.
   */
  package?: string;
  /**
   * source: the port folder that was built.
   */
  path?: string;
  /**
   * source: sha256 over the port folder's files (paths and contents; build outputs and VCS folders left out).
   */
  contentHash?: string;
  /**
   * source: the commit the caller named (--source-commit), when given.
   */
  commit?: string;
  /**
   * command: the runner command line.
   */
  command?: string;
}
/**
 * This interface was referenced by `Report`'s JSON-Schema
 * via the `definition` "result".
 */
export interface Result {
  /**
   * The expanded scenario id.
   */
  scenario: string;
  baseId: string;
  title?: string;
  file: string;
  /**
   * sha256 over the scenario's parsed content (and its expansion's variables), not its layout: two reports with different values ran different scenarios under one id, which diff says.
   */
  definition?: string;
  subject: string;
  status: Status;
  /**
   * Set when a baseline lists this scenario for this subject.
   */
  expected?: {
    status: Status;
    reason: string;
    clause?: string;
    classification?: string;
    /**
     * The checks the baseline entry expects to fail.
     */
    checks?: string[];
    /**
     * false: a listed check that holds is not stale (timing the port does not control).
     */
    strict?: boolean;
  };
  /**
   * How the result compares with the baseline: as-expected (pass, skip, or a listed failure failing exactly on its listed checks), unexpected-failure (an unlisted failure or error, or a listed scenario failing on a check its entry does not list: see unlistedChecks), unexpected-pass (something listed as failing now holds: the scenario passed, or a listed check holds: see staleChecks), flaky (run --repeat: the runs disagreed, in status or in the checks failed, and no baseline entry marked strict: false accepts that: see repeat).
   */
  outcome?: "as-expected" | "unexpected-failure" | "unexpected-pass" | "flaky";
  /**
   * Failed checks the scenario's baseline entry does not list (each a new failure inside a known divergence).
   */
  unlistedChecks?: string[];
  /**
   * Checks the baseline entry lists that held in this run (remove them from the entry).
   */
  staleChecks?: string[];
  durationMs: number;
  message: string;
  spec: string[];
  tags: string[];
  failures?: Failure[];
  /**
   * The steps that did not run because an earlier step failed, each with why (conformance/README.md#independent-steps).
   */
  notRun?: NotRunStep[];
  /**
   * What the runner wrote to stderr during the scenario, when it failed.
   */
  stderr?: string;
  /**
   * What the runner had to substitute while running this scenario (each note once).
   */
  notes?: string[];
  repeat?: RepeatSummary;
}
/**
 * One check that did not hold: an assertion, an unexpected error, a capture that found nothing, a fixture's contract violation or leftovers.
 *
 * This interface was referenced by `Report`'s JSON-Schema
 * via the `definition` "failure".
 */
export interface Failure {
  /**
   * 0-based index of the step in the scenario file.
   */
  step: number;
  stepTitle?: string;
  /**
   * Line of the failing assertion (or step) in the scenario file.
   */
  line?: number;
  /**
   * What failed inside the scenario, stable across runs, e.g. 'step 3 (client.run) llm /requests/0/body/system' (conformance/README.md#check-ids); baselines list these.
   */
  check: string;
  /**
   * 'result', 'fixture NAME' or 'var NAME'.
   */
  target?: string;
  at?: string;
  matcher?: string;
  message: string;
  because?: string;
  /**
   * The expected value; over 64 KiB of JSON, a truncatedValue.
   */
  expected?: unknown;
  /**
   * The value found; over 64 KiB of JSON, a truncatedValue.
   */
  actual?: unknown;
  /**
   * The differences, at most the first 100 (diffCount says how many there were).
   */
  diff?: Difference[];
  /**
   * How many differences there were, when diff lists only the first of them.
   */
  diffCount?: number;
}
/**
 * One difference between expected and actual, at a JSON Pointer.
 *
 * This interface was referenced by `Report`'s JSON-Schema
 * via the `definition` "difference".
 */
export interface Difference {
  path: string;
  change: "changed" | "missing" | "unexpected";
  /**
   * The expected value; over 64 KiB of JSON, a truncatedValue.
   */
  expected?: unknown;
  /**
   * The actual value; over 64 KiB of JSON, a truncatedValue.
   */
  actual?: unknown;
}
/**
 * This interface was referenced by `Report`'s JSON-Schema
 * via the `definition` "notRunStep".
 */
export interface NotRunStep {
  /**
   * 0-based index of the step in the scenario file, as in failures[].step.
   */
  step: number;
  line: number;
  /**
   * The step as its check ids begin: `step 3 (toolkit.warnings)`.
   */
  name: string;
  /**
   * Why it did not run: an earlier step failed and this one is not marked independent, or a step it depends on failed or did not run.
   */
  reason: string;
}
/**
 * run --repeat N (N >= 2): how the scenario's N runs against this subject ended. The result's other fields are one run's: the first with the worst outcome, else the first that failed, else the first.
 *
 * This interface was referenced by `Report`'s JSON-Schema
 * via the `definition` "repeat".
 */
export interface RepeatSummary {
  runs: number;
  /**
   * How many of the runs ended pass.
   */
  passed: number;
  /**
   * How many runs ended with each status.
   */
  statuses: {
    pass?: number;
    fail?: number;
    skip?: number;
    error?: number;
  };
  /**
   * true when the runs disagreed: in status, or in the set of checks they failed.
   */
  flaky: boolean;
  /**
   * The checks that failed in some runs but not in all, in the order first seen.
   */
  variedChecks?: {
    check: string;
    /**
     * In how many of the runs this check failed (fewer than all).
     */
    failed: number;
  }[];
}
/**
 * What a report stores for a value whose JSON text is over 64 KiB: the beginning of that text, its size and its hash (to tell two runs' values apart). Messages over 64 KiB are cut the same way, ending in a note with the size and hash.
 *
 * This interface was referenced by `Report`'s JSON-Schema
 * via the `definition` "truncatedValue".
 */
export interface TruncatedValue {
  truncated: true;
  /**
   * Bytes of the value's whole JSON text (UTF-8).
   */
  size: number;
  /**
   * sha256 of the value's whole JSON text (UTF-8), in hex.
   */
  sha256: string;
  /**
   * The beginning of the value's JSON text.
   */
  prefix: string;
}
