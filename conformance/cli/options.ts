// What several commands' options share: parsers for commander, the --source choice, and the report
// files every command that writes a report writes the same way.
import { InvalidArgumentError } from "commander";
import { writeReportFiles, type ReportFiles } from "../run/report-files.ts";
import type { Report } from "../schema/report.types.ts";
import { sourceCommitEnvironmentVariable, sourceEnvironmentVariable, type PortSourceChoice } from "../subjects/port-source.ts";
import { toolnexusSuite } from "../suite/toolnexus.ts";

export function parseShard(value: string): { index: number; count: number } {
  const match = /^(\d+)\/(\d+)$/.exec(value);
  const index = Number(match?.[1]);
  const count = Number(match?.[2]);
  if (!match || index < 1 || count < 1 || index > count) throw new InvalidArgumentError("expected i/n with 1 <= i <= n, e.g. 2/4");
  return { index, count };
}

export const collect = (value: string, previous: string[]) => [...previous, value];

export function parsePositiveInteger(value: string): number {
  const number = Number(value);
  if (!Number.isInteger(number) || number < 1) throw new InvalidArgumentError("expected a positive whole number of milliseconds");
  return number;
}

/** --source, else the environment variable CI configs set; an empty value means none. */
export function sourceChoice(dir: string | undefined, commit: string | undefined): PortSourceChoice | undefined {
  const chosen = dir || process.env[sourceEnvironmentVariable];
  if (!chosen) return undefined;
  const sha = commit || process.env[sourceCommitEnvironmentVariable];
  return { dir: chosen, ...(sha ? { commit: sha } : {}) };
}

export const writeReports = (report: Report, files: ReportFiles) => writeReportFiles(report, files, toolnexusSuite.title);
