// Reading Stryker's JSON report (mutation-testing-report-schema) into flat mutants, and the score per
// folder. Detected = Killed + Timeout (a mutant that makes a scenario hang is caught by its timeout).
// Left out of the denominator: equivalent mutants (the checked-in list), Ignored, and CompileError /
// RuntimeError (not a program a port could be). NoCoverage counts as undetected: code no scenario
// reaches is a gap of the suite, not an excuse.
import { readFileSync } from "node:fs";

export interface Mutant {
  id: string;
  file: string;
  line: number;
  column: number;
  mutatorName: string;
  original: string;
  replacement: string;
  /** The whole first source line the mutant touches. */
  lineText: string;
  status: string;
}

interface ReportFile {
  source: string;
  mutants: {
    id: string;
    mutatorName: string;
    replacement?: string;
    status: string;
    location: { start: { line: number; column: number }; end: { line: number; column: number } };
  }[];
}

/** The source text between two 1-based line/column positions. */
function slice(lines: string[], start: { line: number; column: number }, end: { line: number; column: number }): string {
  if (start.line === end.line) return lines[start.line - 1].slice(start.column - 1, end.column - 1);
  return [
    lines[start.line - 1].slice(start.column - 1),
    ...lines.slice(start.line, end.line - 1),
    lines[end.line - 1].slice(0, end.column - 1),
  ].join("\n");
}

export function readReport(path: string): Mutant[] {
  let report: { files?: Record<string, ReportFile> };
  try {
    report = JSON.parse(readFileSync(path, "utf8"));
  } catch (error) {
    throw new Error(`${path}: not a readable Stryker JSON report (${(error as Error).message}); run npm run mutate first`);
  }
  if (!report.files || typeof report.files !== "object") throw new Error(`${path}: expected a Stryker JSON report with a "files" object`);
  return Object.entries(report.files).flatMap(([file, { source, mutants }]) => {
    const lines = source.split("\n");
    return mutants.map((mutant) => ({
      id: mutant.id,
      file,
      line: mutant.location.start.line,
      column: mutant.location.start.column,
      mutatorName: mutant.mutatorName,
      original: slice(lines, mutant.location.start, mutant.location.end),
      replacement: mutant.replacement ?? "",
      lineText: lines[mutant.location.start.line - 1] ?? "",
      status: mutant.status,
    }));
  });
}

/**
 * Several reports (runs over different files) as one list: each file's mutants from the last report
 * that mutated it. Stryker numbers mutants per run, so with more than one report an id is prefixed
 * with its report's index to stay unique (the equivalents are matched by id).
 */
export function readReports(paths: string[]): Mutant[] {
  const byFile = new Map<string, Mutant[]>();
  for (const [index, path] of paths.entries()) {
    const fromThisReport = new Map<string, Mutant[]>();
    for (const read of readReport(path)) {
      const mutant = paths.length > 1 ? { ...read, id: `${index}:${read.id}` } : read;
      const list = fromThisReport.get(mutant.file) ?? [];
      if (!fromThisReport.has(mutant.file)) fromThisReport.set(mutant.file, list);
      list.push(mutant);
    }
    for (const [file, mutants] of fromThisReport) byFile.set(file, mutants);
  }
  return [...byFile.values()].flat();
}

/** reference/client/loop.ts -> reference/client; reference/types.ts -> reference (the root's own files). */
export function folderOf(file: string): string {
  const parts = file.split("/");
  return parts.length > 2 ? parts.slice(0, 2).join("/") : parts[0];
}

export interface FolderScore {
  folder: string;
  total: number;
  detected: number;
  undetected: Mutant[];
  equivalent: number;
  excluded: number;
  /** detected / (total - equivalent - excluded), or undefined when nothing counts. */
  score?: number;
}

const detectedStatuses = new Set(["Killed", "Timeout"]);
const excludedStatuses = new Set(["Ignored", "CompileError", "RuntimeError"]);

export function scoreByFolder(mutants: Mutant[], equivalent: Set<string>): FolderScore[] {
  const folders = new Map<string, FolderScore>();
  for (const mutant of mutants) {
    const folder = folderOf(mutant.file);
    const row = folders.get(folder) ?? { folder, total: 0, detected: 0, undetected: [], equivalent: 0, excluded: 0 };
    folders.set(folder, row);
    row.total++;
    if (equivalent.has(mutant.id)) row.equivalent++;
    else if (detectedStatuses.has(mutant.status)) row.detected++;
    else if (excludedStatuses.has(mutant.status)) row.excluded++;
    else row.undetected.push(mutant); // Survived, NoCoverage (Pending would mean an unfinished run)
  }
  return [...folders.values()]
    .map((row) => {
      const counted = row.total - row.equivalent - row.excluded;
      return { ...row, score: counted > 0 ? row.detected / counted : undefined };
    })
    .sort((a, b) => a.folder.localeCompare(b.folder));
}
