// Expected-failure baselines: strict in both directions, so a baseline can never go stale silently.
import { existsSync } from "node:fs";
import { readFile } from "node:fs/promises";
import { createRequire } from "node:module";
import type { Baseline, Entry } from "../schema/baseline.types.ts";
import type { Result } from "../schema/report.types.ts";
import type { ScenarioResult } from "../engine/run.ts";
import { describeSchemaError, schemaErrorLine, schemaErrorPath } from "../common/schema-error.ts";
import { parseYamlWithPositions } from "../common/yaml-positions.ts";
import { compileSchema } from "../../runners/protocol/json-schema.ts";

const require = createRequire(import.meta.url);
const validateBaseline = compileSchema<Baseline>(require("../schema/baseline.schema.json"));

export async function loadBaseline(path: string): Promise<Map<string, Entry>> {
  if (!existsSync(path)) return new Map();
  const yaml = parseYamlWithPositions(await readFile(path, "utf8"));
  const lineOf = yaml.lineAt;
  const syntaxError = yaml.firstError(path);
  if (syntaxError) throw new Error(syntaxError);
  const data = yaml.document.toJS();
  if (!validateBaseline(data)) {
    // ajv sets errors whenever it returns false.
    const problem = validateBaseline.errors![0];
    const at = problem.instancePath || "(top)";
    const text =
      problem.keyword === "not" // the schema's one `not`: two keys it forbids together, which ajv's words do not name
        ? "says both measured and notMeasured: keep the one that holds"
        : problem.params.missingProperty === "checks"
          ? 'missing key "checks": list the check ids the scenario fails on (`npm run conformance -- baseline --update FILE --runner NAME` writes them from a run)'
          : schemaErrorLine(describeSchemaError(problem));
    const { path: where, key } = schemaErrorPath(problem);
    const line = key ? yaml.keyLineAt(where) : lineOf(where);
    throw new Error(`${path}:${line}: invalid baseline at ${at}: ${text} (schema: conformance/schema/baseline.schema.json)`);
  }
  if (data.notMeasured !== undefined && data.entries.length)
    throw new Error(
      `${path}:${lineOf(["notMeasured"])}: says notMeasured but lists ${data.entries.length} entries: entries come from a run, so say when and by which command under measured instead`,
    );
  const entries = new Map<string, Entry>();
  data.entries.forEach((entry, index) => {
    if (entries.has(entry.scenario)) throw new Error(`${path}:${lineOf(["entries", index])}: scenario "${entry.scenario}" is listed twice`);
    const unmeasured = entry.strict === false ? unbackedNonStrict(entry.reason) : undefined;
    if (unmeasured)
      throw new Error(
        `${path}:${lineOf(["entries", index, "strict"])}: "${entry.scenario}" is strict: false, but its reason ${unmeasured}: measure it (e.g. \`npm run conformance -- run --runner NAME --no-baseline --repeat 6 --filter '${entry.scenario}'\`) and quote the rate and the command, as in "flaky 1/6 by \`conformance run --runner NAME --repeat 6 --filter ...\`"`,
      );
    entries.set(entry.scenario, entry);
  });
  return entries;
}

/**
 * A `strict: false` entry excuses a port's varying outcome, so it must say it was seen to vary: its reason
 * quotes a rate, 0 < K < N ("flaky K/N", "passed K/N", "failed in K of N", "K of N runs"), and, in backquotes, the conformance run command that
 * measured it (`run --repeat N` prints the rate). What is missing, or undefined when both are there.
 */
export function unbackedNonStrict(reason: string): string | undefined {
  // "flaky 1/6", "passed 5/6", "failed in 1 of 6", "1 of 6 runs": a word or "runs" around it, so a file:line range (a.py:12/14) is none.
  const rates = [
    ...reason.matchAll(
      /\b(?:flaky|varied|passed|failed|held)\s+(?:in\s+)?(\d+)\s*(?:\/|of)\s*(\d+)\b|\b(\d+)\s*(?:\/|of)\s*(\d+)\s+runs?\b/g,
    ),
  ].map((match) => [Number(match[1] ?? match[3]), Number(match[2] ?? match[4])]);
  const commands = [...reason.matchAll(/`([^`]*)`/g)]
    .map((match) => match[1])
    .filter((command) => /\bconformance\b/.test(command) && /\brun\b/.test(command));
  const varied = rates.some(([k, n]) => k > 0 && k < n);
  if (!varied && !commands.length) return "quotes no measured rate (K/N runs, 0 < K < N) and no `conformance run ...` command";
  if (!varied)
    return rates.length ? "quotes no rate of a varying outcome (K/N with 0 < K < N)" : "quotes no measured rate (K/N runs, 0 < K < N)";
  if (!commands.length) return "quotes no `conformance run ...` command (in backquotes) that measured it";
  return undefined;
}

/** The distinct checks a result failed on, in the order they failed. */
export const failedChecks = (result: Pick<ScenarioResult, "failures">): string[] => [
  ...new Set((result.failures ?? []).map((failure) => failure.check)),
];

/**
 * Attach the baseline's expectation and the outcome to a result. A listed failure is as expected only
 * when it fails on exactly its listed checks: one more is a new failure inside a known divergence
 * (unexpected-failure, naming it), one fewer a stale entry (unexpected-pass, unless `strict: false`).
 */
export function judge(result: ScenarioResult, baseline: Map<string, Entry>): Result {
  const entry = baseline.get(result.scenario);
  if (!entry) {
    const failed = result.status === "fail" || result.status === "error";
    return { ...result, outcome: failed ? "unexpected-failure" : "as-expected" };
  }
  const expected = {
    status: entry.status,
    reason: entry.reason,
    clause: entry.clause,
    classification: entry.classification,
    ...(entry.checks ? { checks: entry.checks } : {}),
    ...(entry.strict === false ? { strict: false } : {}),
  };
  // A non-strict entry: the port fails this only when timing lets it (the entry's reason says why).
  if (result.status === "pass") return { ...result, expected, outcome: entry.strict === false ? "as-expected" : "unexpected-pass" };
  // A skip means the scenario did not run: the entry can be neither confirmed nor refuted.
  if (result.status === "skip") return { ...result, expected, outcome: "as-expected" };
  if (result.status !== entry.status) return { ...result, expected, outcome: "unexpected-failure" };
  // An error ends the scenario where it happens: its checks say nothing about the ones not reached.
  if (result.status === "error" || !entry.checks) return { ...result, expected, outcome: "as-expected" };
  const failed = failedChecks(result);
  const unlistedChecks = failed.filter((check) => !entry.checks!.includes(check));
  // Behind a new failure, a listed check whose step did not run neither held nor failed: not stale.
  // With no new failure, a listed step that does not run is stale: the entry lists what cannot happen.
  const stoppedByNewFailure = (check: string) =>
    unlistedChecks.length > 0 && (result.notRun ?? []).some((step) => check.startsWith(`${step.name} `));
  const staleChecks = entry.strict === false ? [] : entry.checks.filter((check) => !failed.includes(check) && !stoppedByNewFailure(check));
  const outcome = unlistedChecks.length ? "unexpected-failure" : staleChecks.length ? "unexpected-pass" : "as-expected";
  return {
    ...result,
    expected,
    outcome,
    ...(unlistedChecks.length ? { unlistedChecks } : {}),
    ...(staleChecks.length ? { staleChecks } : {}),
  };
}

/** Baseline entries whose scenario is not in the run at all: a renamed or deleted scenario. */
export function orphanedEntries(baseline: Map<string, Entry>, scenarioIds: Set<string>): Entry[] {
  return [...baseline.values()].filter((entry) => !scenarioIds.has(entry.scenario));
}

/** What run (over the whole suite) and merge (of its shards) say about each orphaned entry. */
export function orphanProblems(subject: string, scenarios: string[]): string[] {
  return scenarios.map(
    (scenario) => `${subject} baseline lists "${scenario}", which is not a scenario (renamed or removed?): update the baseline`,
  );
}
