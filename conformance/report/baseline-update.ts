// `baseline --update`: rewrite the `checks:` of a baseline's existing entries from a run's results,
// through the yaml Document API so that comments, reasons and layout stay as written. It never writes
// an entry: a failure no entry lists is reported, for a person to write with its reason.
import { isDeepStrictEqual } from "node:util";
import { isMap, isSeq, parseDocument, type Document, type Scalar, type YAMLMap } from "yaml";
import type { Measured } from "../schema/baseline.types.ts";
import type { Result } from "../schema/report.types.ts";
import { failedChecks } from "./baseline.ts";

export interface BaselineUpdate {
  /** The file's new text (the old one when nothing changed). */
  text: string;
  /** Entries whose checks were written: "scenario: old -> new". */
  changed: string[];
  /** The `measured` written (the file now agrees with that run), when it changed. */
  measuredWritten?: Measured;
  /** What a person must decide, one line each: entries whose scenario passed or ended otherwise, failures with no entry. */
  attention: string[];
}

const sameList = (a: readonly string[], b: readonly string[]) => a.length === b.length && a.every((item, index) => item === b[index]);

// A baseline's keys are plain scalars (the schema has no other kind).
const keyIndex = (map: YAMLMap, key: string) => map.items.findIndex((pair) => (pair.key as Scalar).value === key);

/** Set `key` on a map in place, or insert it at index `at` when it is new there (so a file keeps its reading order). */
function setKey(document: Document, map: YAMLMap, key: string, value: unknown, at: number): void {
  const node = document.createNode(value);
  const existing = keyIndex(map, key);
  if (existing >= 0) map.items[existing].value = node;
  else map.items.splice(at, 0, document.createPair(key, node) as (typeof map.items)[number]);
}

/**
 * Results are one subject's, judged against no baseline. Only entries whose scenario is among them
 * are touched. A non-strict entry keeps its listed checks and gains the failing ones (its checks come
 * and go with timing). `measured` is the run itself when it was the whole suite: written when the
 * file ends agreeing with it (nothing left to decide).
 */
export function updateBaselineChecks(file: string, text: string, results: Result[], measured?: Measured): BaselineUpdate {
  const document = parseDocument(text);
  if (document.errors.length) throw new Error(`${file}: ${document.errors[0].message.split("\n")[0]}`);
  const entries = document.get("entries");
  if (!isSeq(entries)) throw new Error(`${file}: expected a list under "entries"`);
  const byScenario = new Map(results.map((result) => [result.scenario, result]));
  const listed = new Set<string>();
  const changed: string[] = [];
  const attention: string[] = [];
  for (const item of entries.items) {
    if (!isMap(item)) continue;
    const entry = item.toJSON() as { scenario?: string; status?: string; checks?: string[]; strict?: boolean };
    if (!entry.scenario) continue;
    listed.add(entry.scenario);
    const result = byScenario.get(entry.scenario);
    if (!result || result.status === "skip") continue;
    // A non-strict entry may pass (its reason says why); it needs checks all the same.
    if (result.status === "pass" && entry.strict === false && entry.checks) continue;
    if (result.status !== entry.status) {
      const advice =
        result.status === "pass" && entry.strict !== false
          ? ": remove the entry if that holds"
          : result.status === "pass"
            ? " (strict: false, and it lists no checks yet: run again until it fails, or write them)"
            : `: ${result.message.split("\n")[0]}`;
      attention.push(
        `${entry.scenario}: the entry says ${entry.status}, this run ${result.status === "pass" ? "passed" : `ended ${result.status}`}${advice}`,
      );
      continue;
    }
    if (result.status !== "fail") continue;
    const failed = failedChecks(result);
    const checks = entry.strict === false ? [...new Set([...(entry.checks ?? []), ...failed])] : failed;
    if (entry.checks && sameList(entry.checks, checks)) continue;
    setKey(document, item, "checks", checks, keyIndex(item, "status") + 1);
    changed.push(`${entry.scenario}: ${entry.checks ? JSON.stringify(entry.checks) : "(none)"} -> ${JSON.stringify(checks)}`);
  }
  for (const result of results) {
    if ((result.status === "fail" || result.status === "error") && !listed.has(result.scenario)) {
      const checks = failedChecks(result);
      attention.push(
        `${result.scenario}: ${result.status}s and no entry lists it${checks.length ? ` (checks: ${JSON.stringify(checks)})` : ""}` +
          `: write one with its clause, classification and reason, or fix the port`,
      );
    }
  }
  let measuredWritten: Measured | undefined;
  // A file that says notMeasured says no measured (the schema), so it differs from any run.
  const said = document.toJS() as { measured?: Measured };
  if (measured && !attention.length && !isDeepStrictEqual(said.measured, measured)) {
    // Which run the file now agrees with; a measured file says no notMeasured.
    const top = document.contents as YAMLMap;
    document.delete("notMeasured");
    setKey(document, top, "measured", measured, keyIndex(top, "entries"));
    measuredWritten = measured;
  }
  // Lists written as the file writes them, so a rewrite shows as the lines it changed: a file whose
  // lists start at their key's indent has a line that begins with "-" (no key of a baseline does).
  const indentSeq = !/^-/m.test(text);
  return {
    text: changed.length || measuredWritten ? document.toString({ lineWidth: 0, indentSeq }) : text,
    changed,
    attention,
    ...(measuredWritten ? { measuredWritten } : {}),
  };
}
