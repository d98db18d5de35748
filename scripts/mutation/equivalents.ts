// The checked-in list of equivalent mutants (reference/EQUIVALENT-MUTANTS.yaml): loading with errors at
// file:line, and matching entries to the mutants of a Stryker JSON report by what they change (file,
// mutator, original and replacement text, optionally a snippet of the line), never by line number alone,
// so an entry survives unrelated edits and goes stale (an error) when its code changes.
import { readFileSync } from "node:fs";
import { parseYamlWithPositions } from "../../conformance/common/yaml-positions.ts";
import type { Mutant } from "./report.ts";

export interface Equivalent {
  file: string;
  mutator: string;
  original: string;
  replacement: string;
  /** A snippet of the mutant's first source line, to tell apart mutants that change the same text. */
  line?: string;
  /** How many mutants the entry stands for when that is more than one (all equivalent for one reason). */
  matches?: number;
  reason: string;
  /** The entry's own line in the YAML file, for messages. */
  at: number;
}

const keys = {
  file: "string",
  mutator: "string",
  original: "string",
  replacement: "string",
  line: "string",
  matches: "number",
  reason: "string",
} as const;
const required = ["file", "mutator", "original", "replacement", "reason"] as const;

export function loadEquivalents(path: string): Equivalent[] {
  const { document, lineAt, firstError } = parseYamlWithPositions(readFileSync(path, "utf8"));
  const syntaxError = firstError(path);
  if (syntaxError) throw new Error(syntaxError);
  const data = document.toJS() as unknown;
  const list = (data as { equivalents?: unknown })?.equivalents;
  if (!Array.isArray(list)) throw new Error(`${path}:1: expected a top-level key "equivalents" holding a list of entries`);
  return list.map((entry, index) => {
    const at = lineAt(["equivalents", index]);
    if (typeof entry !== "object" || entry === null || Array.isArray(entry))
      throw new Error(`${path}:${at}: expected an entry (a map with ${required.join(", ")})`);
    for (const [key, value] of Object.entries(entry)) {
      const expected = keys[key as keyof typeof keys];
      if (!expected) throw new Error(`${path}:${at}: unknown key "${key}" (allowed: ${Object.keys(keys).join(", ")})`);
      if (typeof value !== expected) throw new Error(`${path}:${at}: "${key}" must be a ${expected}, got ${JSON.stringify(value)}`);
    }
    for (const key of required) if (!(key in entry)) throw new Error(`${path}:${at}: entry lacks "${key}"`);
    if ((entry as Equivalent).reason.trim() === "")
      throw new Error(`${path}:${at}: "reason" is empty: say why the mutant cannot change behaviour`);
    return { ...(entry as Omit<Equivalent, "at">), at };
  });
}

const squash = (text: string) => text.replace(/\s+/g, " ").trim();

export function describes(entry: Equivalent, mutant: Mutant): boolean {
  return (
    entry.file === mutant.file &&
    entry.mutator === mutant.mutatorName &&
    squash(entry.original) === squash(mutant.original) &&
    squash(entry.replacement) === squash(mutant.replacement) &&
    (entry.line === undefined || squash(mutant.lineText).includes(squash(entry.line)))
  );
}

export interface Matching {
  /** Mutant ids an entry accounts for. */
  equivalent: Set<string>;
  /** Entries that match no mutant, or not as many as they say: their code changed. */
  stale: { entry: Equivalent; found: number }[];
  /** Entries for files the report does not cover (a run with --mutate on other files): not judged. */
  unchecked: Equivalent[];
}

/** Match entries to mutants; an entry for a file the report does not cover (a partial run) is not judged. */
export function matchEquivalents(entries: Equivalent[], mutants: Mutant[], filesInReport: Set<string>): Matching {
  const equivalent = new Set<string>();
  const stale: Matching["stale"] = [];
  const unchecked: Equivalent[] = [];
  for (const entry of entries) {
    if (!filesInReport.has(entry.file)) {
      unchecked.push(entry);
      continue;
    }
    const found = mutants.filter((mutant) => describes(entry, mutant));
    if (found.length !== (entry.matches ?? 1)) stale.push({ entry, found: found.length });
    else for (const mutant of found) equivalent.add(mutant.id);
  }
  return { equivalent, stale, unchecked };
}
