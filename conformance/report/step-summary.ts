// A compact Markdown summary for a CI job's page: GitHub Actions renders the file GITHUB_STEP_SUMMARY
// names, to which every step appends. run and merge add one per report (per subject: passed, failed,
// baselined, skipped, unavailable with its reason; the new failures first, each with file:line and
// check); diff adds its own (diff-render.ts). Appended, never overwritten: earlier steps wrote there too.
import { describeTimeScale } from "./time-scale.ts";
import { appendFile } from "node:fs/promises";
import type { Report, Result } from "../schema/report.types.ts";
import { isBaselinedFailure } from "./console.ts";
import { reasonDigest } from "./matrix.ts";
import { describeRepeat } from "./repeat.ts";

export const stepSummaryVariable = "GITHUB_STEP_SUMMARY";

/** Appends to the file GITHUB_STEP_SUMMARY names, when it names one; returns that file. */
export async function appendStepSummary(markdown: string, env: NodeJS.ProcessEnv = process.env): Promise<string | undefined> {
  const file = env[stepSummaryVariable];
  if (!file) return undefined;
  await appendFile(file, markdown.endsWith("\n") ? `${markdown}\n` : `${markdown}\n\n`);
  return file;
}

const code = (text: string) => `\`${text.replace(/`/g, "'").replace(/\|/g, "\\|")}\``;

/** Where a result failed first (file:line) and on which check. */
function place(result: Result): { where: string; check: string } {
  const failure = result.failures?.[0];
  if (result.outcome === "flaky") return { where: result.file, check: `flaky: ${describeRepeat(result.repeat!)}` };
  const check =
    result.outcome === "unexpected-pass"
      ? result.staleChecks?.length
        ? `listed checks now hold: ${result.staleChecks.join(", ")}`
        : "passed though baselined"
      : (result.unlistedChecks?.[0] ?? failure?.check ?? result.message.slice(0, 200));
  const line = result.failures?.find((each) => each.check === result.unlistedChecks?.[0])?.line ?? failure?.line;
  return { where: line ? `${result.file}:${line}` : result.file, check };
}

export function renderReportSummary(report: Report, options: { title: string; limit?: number; problems?: string[] }): string {
  const limit = options.limit ?? 30;
  const unexpected = report.results.filter((result) => result.outcome !== "as-expected");
  const lines = [`### ${options.title}`, ""];
  if (report.timeScale) lines.push(`${describeTimeScale(report.timeScale)}.`, "");
  lines.push(
    unexpected.length || options.problems?.length
      ? `**${unexpected.length} unexpected result${unexpected.length === 1 ? "" : "s"}${options.problems?.length ? `, ${options.problems.length} problem(s)` : ""}**`
      : "✅ nothing unexpected",
    "",
  );
  if (unexpected.length) {
    lines.push("| new | subject | scenario | where | check |", "|---|---|---|---|---|");
    for (const result of unexpected.slice(0, limit)) {
      const { where, check } = place(result);
      lines.push(
        `| ${result.outcome === "unexpected-pass" ? "XPASS" : result.outcome === "flaky" ? "FLAKY" : result.status.toUpperCase()} | ${result.subject} | ${code(result.scenario)} | ${code(where)} | ${code(check)} |`,
      );
    }
    if (unexpected.length > limit) lines.push(`| … | | ${unexpected.length - limit} more (see the JSON report) | | |`);
    lines.push("");
  }
  for (const problem of options.problems ?? []) lines.push(`- ${problem.replace(/\n/g, " ")}`);
  if (options.problems?.length) lines.push("");
  lines.push("| subject | passed | failed | baselined | skipped | unavailable |", "|---|---|---|---|---|---|");
  for (const subject of report.subjects) {
    if (!subject.available) {
      lines.push(`| ${subject.name} | - | - | - | - | ${reasonDigest(subject.unavailableReason ?? "").replace(/\|/g, "\\|")} |`);
      continue;
    }
    const mine = report.results.filter((result) => result.subject === subject.name);
    const count = (predicate: (result: Result) => boolean) => mine.filter(predicate).length;
    const failed = count((result) => (result.status === "fail" || result.status === "error") && !isBaselinedFailure(result));
    lines.push(
      `| ${subject.name} | ${count((result) => result.status === "pass")} | ${failed} | ${count(isBaselinedFailure)} | ${count((result) => result.status === "skip")} | |`,
    );
  }
  return `${lines.join("\n")}\n`;
}
