// The compliance matrix in Markdown: scenarios x subjects.
import type { Report, Result } from "../schema/report.types.ts";

export function cellSymbol(result: Result | undefined): string {
  if (!result) return "·";
  if (result.outcome === "unexpected-pass") return "✅❗";
  if (result.status === "pass") return "✅";
  if (result.status === "skip") return "⏭";
  if (result.outcome === "as-expected") return result.status === "error" ? "💥⚠" : "❌⚠";
  return result.status === "error" ? "💥" : "❌";
}

/** The cost column: the subject's scenario durations added up (relative cost; `npm run bench` measures it properly). */
export function subjectSeconds(results: Result[]): string {
  return (results.reduce((total, result) => total + result.durationMs, 0) / 1000).toFixed(1);
}

/** One line of an unavailable reason for a table cell: its first line, and the installer's first error line when the first ends in ":". */
export function reasonDigest(reason: string): string {
  const lines = reason.split("\n").map((line) => line.trim()).filter(Boolean);
  const first = lines[0] ?? "";
  const rest = first.endsWith(":") ? lines.slice(1).filter((line) => !/retrying/i.test(line)) : [];
  const errorLine = rest.find((line) => /\b(403|404|forbidden|could not|not found|cannot|no matching)\b/i.test(line)) ?? rest.find((line) => /error/i.test(line));
  const digest = errorLine ? `${first} ${errorLine}` : first;
  return digest.length > 240 ? `${digest.slice(0, 240)}…` : digest;
}

export function renderMarkdownMatrix(report: Report): string {
  const subjects = report.subjects;
  const scenarios = [...new Set(report.results.map((result) => result.scenario))].sort();
  const byKey = new Map(report.results.map((result) => [`${result.subject}\u0000${result.scenario}`, result]));
  const lines = [
    "# Compliance matrix",
    "",
    "✅ pass · ❌ fail · 💥 error · ⏭ skipped (capability not declared) · ⚠ expected by the subject's baseline · ❗ listed as expected but passed",
    "",
    "| subject | language | package | version | pass | fail | error | skip | time (s) |",
    "|---|---|---|---|---|---|---|---|---|",
  ];
  for (const subject of subjects) {
    const mine = report.results.filter((result) => result.subject === subject.name);
    const count = (status: string) => mine.filter((result) => result.status === status).length;
    const version = subject.available ? subject.version : `unavailable: ${reasonDigest(subject.unavailableReason ?? "").replace(/\|/g, "\\|")}`;
    lines.push(`| ${subject.name} | ${subject.language} | ${subject.package} | ${version} | ${count("pass")} | ${count("fail")} | ${count("error")} | ${count("skip")} | ${subjectSeconds(mine)} |`);
  }
  lines.push("", `| scenario | ${subjects.map((subject) => subject.name).join(" | ")} |`, `|---|${subjects.map(() => "---").join("|")}|`);
  for (const scenario of scenarios) {
    lines.push(`| \`${scenario}\` | ${subjects.map((subject) => cellSymbol(byKey.get(`${subject.name}\u0000${scenario}`))).join(" | ")} |`);
  }
  return `${lines.join("\n")}\n`;
}
