// A recorded duration table: how long each scenario took against each subject in a measured run, so
// `run --jobs N` starts the longest first (conformance/engine/lanes.ts). It orders the work only: no
// result, status or report depends on it, and a stale table costs time, never correctness.
// Written by scripts/record-durations.ts from JSON reports; read by run and test/suite.
import { readFile } from "node:fs/promises";
import type { Result } from "../schema/report.types.ts";

/** Per subject name, per expanded scenario id, milliseconds (rounded). */
export interface DurationTable {
  /** What the numbers are and how they were measured (free text, for a reader of the file). */
  about: string;
  subjects: Record<string, Record<string, number>>;
}

export const emptyDurations: DurationTable = { about: "", subjects: {} };

function isMsRecord(value: unknown): value is Record<string, number> {
  return (
    typeof value === "object" &&
    value !== null &&
    !Array.isArray(value) &&
    Object.values(value).every((ms) => typeof ms === "number" && Number.isFinite(ms) && ms >= 0)
  );
}

export function parseDurationTable(text: string, file: string): DurationTable {
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch (error) {
    throw new Error(`${file}: not JSON (${error instanceof Error ? error.message : String(error)})`);
  }
  const table = data as Partial<DurationTable>;
  if (
    typeof table !== "object" ||
    table === null ||
    typeof table.about !== "string" ||
    typeof table.subjects !== "object" ||
    table.subjects === null
  )
    throw new Error(`${file}: expected {"about": TEXT, "subjects": {SUBJECT: {SCENARIO ID: MS}}}`);
  for (const [subject, durations] of Object.entries(table.subjects)) {
    if (!isMsRecord(durations)) throw new Error(`${file}: subjects.${subject}: expected {SCENARIO ID: milliseconds >= 0}`);
  }
  return table as DurationTable;
}

/** The table at `file`; an absent file is an empty table (every weight then falls back). */
export async function loadDurationTable(file: string): Promise<DurationTable> {
  let text: string;
  try {
    text = await readFile(file, "utf8");
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return emptyDurations;
    throw error;
  }
  return parseDurationTable(text, file);
}

/**
 * A scenario's expected duration against `subject`: its own recorded time; where the subject has
 * none, the longest any subject took (a scenario slow anywhere waits on something); for a scenario
 * no one recorded yet, `fallback` (e.g. the timeouts its steps declare).
 */
export function durationWeight<Item extends { id: string }>(
  table: DurationTable,
  subject: string,
  fallback: (item: Item) => number,
): (item: Item) => number {
  const own = table.subjects[subject];
  const longest = new Map<string, number>();
  for (const durations of Object.values(table.subjects)) {
    for (const [id, ms] of Object.entries(durations)) longest.set(id, Math.max(longest.get(id) ?? 0, ms));
  }
  return (item) => own?.[item.id] ?? longest.get(item.id) ?? fallback(item);
}

/** `table` with each subject of `results` replaced by the durations those results took (rounded to 10 ms). */
export function recordDurations(table: DurationTable, results: readonly Result[], about: string): DurationTable {
  const subjects: DurationTable["subjects"] = { ...table.subjects };
  const fresh = new Map<string, Record<string, number>>();
  for (const result of results) {
    const durations = fresh.get(result.subject) ?? {};
    durations[result.scenario] = Math.round(result.durationMs / 10) * 10;
    fresh.set(result.subject, durations);
  }
  for (const [subject, durations] of fresh) subjects[subject] = durations;
  const sorted = Object.fromEntries(
    Object.keys(subjects)
      .sort()
      .map((subject) => [subject, subjects[subject]]),
  );
  return { about, subjects: sorted };
}
