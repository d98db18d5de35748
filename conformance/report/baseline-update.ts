// `baseline --update`: rewrite the `checks:` of a baseline's existing entries from a run's results,
// through the yaml Document API so that comments, reasons and layout stay as written. It never writes
// an entry: a failure no entry lists is reported, for a person to write with its reason.
import { isMap, isSeq, parseDocument, type Document, type YAMLMap } from "yaml";
import type { Result } from "../schema/report.types.ts";
import { failedChecks } from "./baseline.ts";

export interface BaselineUpdate {
  /** The file's new text (the old one when nothing changed). */
  text: string;
  /** Entries whose checks were written: "scenario: old -> new". */
  changed: string[];
  /** What a person must decide, one line each: entries whose scenario passed or ended otherwise, failures with no entry. */
  attention: string[];
}

const sameList = (a: readonly string[], b: readonly string[]) => a.length === b.length && a.every((item, index) => item === b[index]);

/** Set `checks` on an entry's map, right after `status` when it is new there. */
function setChecks(document: Document, entry: YAMLMap, checks: string[]): void {
  const node = document.createNode(checks);
  const existing = entry.items.findIndex((pair) => String((pair.key as { value?: unknown })?.value ?? pair.key) === "checks");
  if (existing >= 0) {
    entry.items[existing].value = node;
    return;
  }
  const status = entry.items.findIndex((pair) => String((pair.key as { value?: unknown })?.value ?? pair.key) === "status");
  entry.items.splice(status + 1, 0, document.createPair("checks", node) as (typeof entry.items)[number]);
}

/**
 * Results are one subject's, judged against no baseline. Only entries whose scenario is among them
 * are touched. A non-strict entry keeps its listed checks and gains the failing ones (its checks come
 * and go with timing).
 */
export function updateBaselineChecks(file: string, text: string, results: Result[]): BaselineUpdate {
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
    setChecks(document, item, checks);
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
  return { text: changed.length ? document.toString({ lineWidth: 0 }) : text, changed, attention };
}
