// The JSON report (conformance/schema/report.schema.json): written, read back, split and merged.
import { readFile } from "node:fs/promises";
import { createRequire } from "node:module";
import { compileSchema } from "../../runners/protocol/json-schema.ts";
import type { Report, ReportSubject, Result } from "../schema/report.types.ts";
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
    ...(info.supports ? { supports: info.supports } : {}),
    available: unavailableReason === undefined,
    ...(unavailableReason !== undefined ? { unavailableReason } : {}),
  };
}

export async function readJsonReport(path: string): Promise<Report> {
  const text = await readFile(path, "utf8");
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch (error) {
    const why = error instanceof Error ? error.message : String(error);
    if (!text.trim()) throw new Error(`${path} is empty, not a conformance report (did its run write it?)`);
    // A shard's run that was interrupted or ran out of disk leaves its report cut short: the parser
    // stops at (or in a string running up to) the end of the text.
    const position = Number(/at position (\d+)/.exec(why)?.[1] ?? Number.NaN);
    if (/end of (JSON )?input|unterminated string/i.test(why) || position >= text.trimEnd().length - 1)
      throw new Error(`${path} is cut short (${text.length} bytes, the JSON ends early): was its run interrupted while writing it?`);
    throw new Error(`${path} is not JSON: ${why}`);
  }
  if (!validateReport(data)) {
    const problem = validateReport.errors?.[0];
    throw new Error(`${path} is not a conformance report: ${problem?.instancePath || "(top)"} ${problem?.message}`);
  }
  return data;
}

/**
 * Merge shard reports: subjects by name, results by (scenario, subject); a duplicate is an error that
 * names both files (`files[i]` is where `reports[i]` came from).
 */
export function mergeReports(reports: Report[], files: string[] = reports.map((_, index) => `report ${index + 1}`)): Report {
  const subjects = new Map<string, ReportSubject>();
  const results = new Map<string, { result: Result; index: number }>();
  reports.forEach((report, index) => {
    const file = files[index];
    for (const subject of report.subjects) {
      // Every shard of a whole-suite run finds the same orphaned baseline entries: keep each once.
      const orphans = [...new Set([...(subjects.get(subject.name)?.orphanedEntries ?? []), ...(subject.orphanedEntries ?? [])])];
      subjects.set(subject.name, { ...subject, ...(orphans.length ? { orphanedEntries: orphans } : {}) });
    }
    for (const result of report.results) {
      const key = `${result.subject}\u0000${result.scenario}`;
      const earlier = results.get(key);
      if (earlier?.index === index) throw new Error(`${file} lists scenario ${result.scenario} on ${result.subject} twice`);
      if (earlier) {
        const where = files[earlier.index] === file ? `${file}, which is given twice` : `both ${files[earlier.index]} and ${file}`;
        throw new Error(
          `scenario ${result.scenario} on ${result.subject} appears in ${where}: merge each shard once, and only shards of one run (--shard i/n with the same n)`,
        );
      }
      results.set(key, { result, index });
    }
  });
  const times = reports.flatMap((report) => [report.startedAt, report.finishedAt]).sort();
  // One harness version when every report names the same one; reports of several keep none (diff then says "not recorded").
  const harnesses = new Set(reports.map((report) => report.harness?.version));
  const harness = harnesses.size === 1 && reports[0]?.harness ? { harness: reports[0].harness } : {};
  // Results measured at two time scales are not one run's: a bound checked at 2x is not the same check.
  const scales = new Set(reports.map((report) => report.timeScale ?? 1));
  if (scales.size > 1)
    throw new Error(
      `the reports ran at different time scales (${reports.map((report, index) => `${files[index]}: ${report.timeScale ?? 1}`).join(", ")}): merge only shards of one run`,
    );
  const timeScale = reports[0]?.timeScale;
  return {
    version: 1,
    startedAt: times[0],
    finishedAt: times.at(-1)!,
    ...harness,
    ...(timeScale ? { timeScale } : {}),
    subjects: [...subjects.values()],
    results: [...results.values()].map(({ result }) => result),
  };
}
