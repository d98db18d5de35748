// The JSON report (conformance/schema/report.schema.json): written, read back, split and merged.
import { readFile } from "node:fs/promises";
import { createRequire } from "node:module";
import { compileSchema } from "../schema/validator.ts";
import type { Report, Result, Subject as ReportSubject } from "../schema/report.types.ts";
import type { SubjectInfo } from "../subjects/subject.ts";

const require = createRequire(import.meta.url);
export const validateReport = compileSchema<Report>(require("../schema/report.schema.json"));

export function reportSubject(info: SubjectInfo, unavailableReason?: string): ReportSubject {
  return {
    name: info.name,
    language: info.language,
    package: info.package,
    version: info.version,
    capabilities: info.capabilities,
    ...(info.build ? { build: info.build } : {}),
    available: unavailableReason === undefined,
    ...(unavailableReason !== undefined ? { unavailableReason } : {}),
  };
}

export async function readJsonReport(path: string): Promise<Report> {
  const data = JSON.parse(await readFile(path, "utf8"));
  if (!validateReport(data)) {
    const problem = validateReport.errors?.[0];
    throw new Error(`${path} is not a conformance report: ${problem?.instancePath || "(top)"} ${problem?.message}`);
  }
  return data;
}

/** Merge shard reports: subjects by name, results by (scenario, subject); a duplicate is an error. */
export function mergeReports(reports: Report[]): Report {
  const subjects = new Map<string, ReportSubject>();
  const results = new Map<string, Result>();
  for (const report of reports) {
    for (const subject of report.subjects) subjects.set(subject.name, subject);
    for (const result of report.results) {
      const key = `${result.subject}\u0000${result.scenario}`;
      if (results.has(key)) throw new Error(`scenario ${result.scenario} on ${result.subject} appears in more than one report`);
      results.set(key, result);
    }
  }
  const times = reports.flatMap((report) => [report.startedAt, report.finishedAt]).sort();
  return { version: 1, startedAt: times[0], finishedAt: times.at(-1)!, subjects: [...subjects.values()], results: [...results.values()] };
}
