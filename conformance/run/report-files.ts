// Writes a run's report to the files the user named: JSON, badges, the HTML and Markdown matrices and
// JUnit, each rendered by report/ (run, merge and history write through here).
import { writeOutput } from "../common/write-output.ts";
import { writeBadges } from "../report/badges.ts";
import { renderHtmlMatrix } from "../report/html.ts";
import { renderJunit } from "../report/junit.ts";
import { renderMarkdownMatrix } from "../report/matrix.ts";
import type { Report } from "../schema/report.types.ts";

export interface ReportFiles {
  json?: string;
  junit?: string;
  matrix?: string;
  html?: string;
  badges?: string;
}

/** Writes each file named in `files`; `title` heads the HTML matrix and names the JUnit suite. */
export async function writeReportFiles(report: Report, files: ReportFiles, title: string): Promise<void> {
  if (files.json) await writeOutput(files.json, `${JSON.stringify(report, null, 2)}\n`);
  if (files.badges) await writeBadges(report, files.badges);
  if (files.html) await writeOutput(files.html, renderHtmlMatrix(report, title));
  if (files.junit) await writeOutput(files.junit, renderJunit(report, title));
  if (files.matrix) await writeOutput(files.matrix, renderMarkdownMatrix(report));
}
