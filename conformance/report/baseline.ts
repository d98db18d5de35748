// Expected-failure baselines: strict in both directions, so a baseline can never go stale silently.
import { existsSync } from "node:fs";
import { readFile } from "node:fs/promises";
import { createRequire } from "node:module";
import { Ajv2020 } from "ajv/dist/2020.js";
import { parseDocument } from "yaml";
import type { Baseline, Entry } from "../schema/baseline.types.ts";
import type { Result } from "../schema/report.types.ts";
import type { ScenarioResult } from "../engine/run.ts";

const require = createRequire(import.meta.url);
const validateBaseline = new Ajv2020({ allErrors: true }).compile<Baseline>(require("../schema/baseline.schema.json"));

export async function loadBaseline(path: string): Promise<Map<string, Entry>> {
  if (!existsSync(path)) return new Map();
  const document = parseDocument(await readFile(path, "utf8"));
  if (document.errors.length) throw new Error(`${path}: ${document.errors[0].message}`);
  const data = document.toJS();
  if (!validateBaseline(data)) {
    const problem = validateBaseline.errors?.[0];
    throw new Error(`${path}: invalid baseline at ${problem?.instancePath || "(top)"}: ${problem?.message}`);
  }
  const entries = new Map<string, Entry>();
  for (const entry of data.entries) {
    if (entries.has(entry.scenario)) throw new Error(`${path}: scenario "${entry.scenario}" is listed twice`);
    entries.set(entry.scenario, entry);
  }
  return entries;
}

/** Attach the baseline's expectation and the outcome to a result. */
export function judge(result: ScenarioResult, baseline: Map<string, Entry>): Result {
  const entry = baseline.get(result.scenario);
  if (!entry) {
    const failed = result.status === "fail" || result.status === "error";
    return { ...result, outcome: failed ? "unexpected-failure" : "as-expected" };
  }
  const expected = { status: entry.status, reason: entry.reason, clause: entry.clause, classification: entry.classification };
  if (result.status === entry.status) return { ...result, expected, outcome: "as-expected" };
  if (result.status === "pass") return { ...result, expected, outcome: "unexpected-pass" };
  // A skip means the scenario did not run: the entry can be neither confirmed nor refuted.
  if (result.status === "skip") return { ...result, expected, outcome: "as-expected" };
  return { ...result, expected, outcome: "unexpected-failure" };
}

/** Baseline entries whose scenario is not in the run at all: a renamed or deleted scenario. */
export function orphanedEntries(baseline: Map<string, Entry>, scenarioIds: Set<string>): Entry[] {
  return [...baseline.values()].filter((entry) => !scenarioIds.has(entry.scenario));
}
