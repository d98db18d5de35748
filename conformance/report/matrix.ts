// The compliance matrix in Markdown: scenarios x subjects.
import { describeTimeScale } from "./time-scale.ts";
import type { Report, Result } from "../schema/report.types.ts";
import { describeOrigin } from "./origin.ts";
import { oddOneOut } from "./odd-one-out.ts";

export function cellSymbol(result: Result | undefined): string {
  if (!result) return "·";
  if (result.outcome === "unexpected-pass") return result.status === "pass" ? "✅❗" : "❌❗";
  if (result.outcome === "flaky") return `🎲 ${result.repeat?.passed}/${result.repeat?.runs}`;
  if (result.status === "pass") return "✅";
  if (result.status === "skip") return "⏭";
  if (result.outcome === "as-expected") return result.status === "error" ? "💥⚠" : "❌⚠";
  return result.status === "error" ? "💥" : "❌";
}

/** What both renderings of the matrix show: the sorted scenario ids, each cell's result, each subject's totals. */
export function matrixData(report: Report) {
  const byKey = new Map(report.results.map((result) => [`${result.subject}\u0000${result.scenario}`, result]));
  return {
    scenarios: [...new Set(report.results.map((result) => result.scenario))].sort(),
    cell: (subject: string, scenario: string): Result | undefined => byKey.get(`${subject}\u0000${scenario}`),
    totals(subject: string) {
      const mine = report.results.filter((result) => result.subject === subject);
      const count = (status: Result["status"]) => mine.filter((result) => result.status === status).length;
      // The cost column: the scenario durations added up (relative only; `npm run bench` measures cost properly).
      const seconds = (mine.reduce((total, result) => total + result.durationMs, 0) / 1000).toFixed(1);
      return [count("pass"), count("fail"), count("error"), count("skip"), seconds];
    },
  };
}

/** One line of an unavailable reason for a table cell: its first line, and the installer's first error line when the first ends in ":". */
export function reasonDigest(reason: string): string {
  const lines = reason
    .split("\n")
    .map((line) => line.trim())
    .filter(Boolean);
  const first = lines[0] ?? "";
  const rest = first.endsWith(":") ? lines.slice(1).filter((line) => !/retrying/i.test(line)) : [];
  const errorLine =
    rest.find((line) => /\b(403|404|forbidden|could not|not found|cannot|no matching)\b/i.test(line)) ??
    rest.find((line) => /error/i.test(line));
  const digest = errorLine ? `${first} ${errorLine}` : first;
  return digest.length > 240 ? `${digest.slice(0, 240)}…` : digest;
}

export function renderMarkdownMatrix(report: Report): string {
  const subjects = report.subjects;
  const { scenarios, cell, totals } = matrixData(report);
  const lines = [
    "# Compliance matrix",
    "",
    "✅ pass · ❌ fail · 💥 error · ⏭ skipped (capability not declared) · ⚠ expected by the subject's baseline · " +
      `❗ listed as expected but passed (✅❗), or failing on fewer checks than listed (❌❗)${report.results.some((result) => result.repeat) ? " · 🎲 K/N flaky: the runs of --repeat disagreed, K of N passed" : ""}`,
    "",
    ...(report.timeScale ? [`${describeTimeScale(report.timeScale)}.`, ""] : []),
    "| subject | language | package | version | built from | pass | fail | error | skip | time (s) |",
    "|---|---|---|---|---|---|---|---|---|---|",
  ];
  for (const subject of subjects) {
    const version = subject.available
      ? subject.version
      : `unavailable: ${reasonDigest(subject.unavailableReason ?? "").replace(/\|/g, "\\|")}`;
    lines.push(
      `| ${subject.name} | ${subject.language} | ${subject.package} | ${version} | ${describeOrigin(subject.build)} | ${totals(subject.name).join(" | ")} |`,
    );
  }
  lines.push("", `| scenario | ${subjects.map((subject) => subject.name).join(" | ")} |`, `|---|${subjects.map(() => "---").join("|")}|`);
  for (const scenario of scenarios) {
    lines.push(`| \`${scenario}\` | ${subjects.map((subject) => cellSymbol(cell(subject.name, scenario))).join(" | ")} |`);
  }
  lines.push("", ...oddOneOutSection(report));
  return `${lines.join("\n")}\n`;
}

/** The scenarios where exactly one subject differs from all the others, per subject; or why there is no such list. */
function oddOneOutSection(report: Report): string[] {
  const found = oddOneOut(report);
  const lines = ["## Odd one out", ""];
  if (!found.applicable) return [...lines, `None computed: ${found.reason}.`];
  lines.push(
    `Scenarios where exactly one of the ${found.subjects.length} subjects differs from all the others (in status or in the checks it fails; skips take no part):`,
    "",
  );
  for (const [subject, odd] of found.bySubject) {
    lines.push(`- **${subject}**: ${odd.length ? odd.length : "none"}`);
    for (const entry of odd) {
      const own = entry.checks.length ? `${entry.status} on ${entry.checks.map((check) => `\`${check}\``).join(", ")}` : entry.status;
      const others = entry.others.checks.length
        ? `${entry.others.status} on ${entry.others.checks.map((check) => `\`${check}\``).join(", ")}`
        : entry.others.status;
      lines.push(`  - \`${entry.scenario}\`: ${own}; the others (${entry.others.subjects.join(", ")}) ${others}`);
    }
  }
  return lines;
}
