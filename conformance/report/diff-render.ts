// A report diff (diff.ts) for people: the console's lines, and Markdown fit for a pull-request comment
// (new failures first, each with its file:line and check; long lists cut with a count).
import type { ReportDiff, SubjectDiff, Transition, TransitionKind } from "../schema/diff.types.ts";

const kindLabel: Record<TransitionKind, string> = {
  "new-failure": "NEW FAILURE",
  "new-failing-check": "NEW CHECK",
  fixed: "FIXED",
  "fewer-failing-checks": "FEWER CHECKS",
  added: "ADDED",
  removed: "REMOVED",
  other: "CHANGED",
};

const plural = (count: number, word: string) => `${count} ${word}${count === 1 ? "" : /(s|x)$/.test(word) ? "es" : "s"}`;

const statusText = (state: Transition["before"]) => (state ? `${state.status}${state.baselined ? " (baselined)" : ""}` : "-");

/** The checks a reader should look at: the new ones, else the fixed ones, else those failing now. */
const checksShown = (transition: Transition) =>
  transition.newChecks ??
  transition.fixedChecks ??
  (transition.after?.checks.length ? transition.after.checks : (transition.before?.checks ?? []));

export function subjectHeadline(subject: SubjectDiff): string {
  const { counts } = subject;
  switch (subject.change) {
    case "became-unavailable":
      return `${subject.subject}: became unavailable: ${subject.unavailableReason ?? "(no reason given)"}`;
    case "became-available":
      return `${subject.subject}: became available (it was unavailable before: ${subject.unavailableReason ?? "no reason given"}); nothing to compare`;
    case "still-unavailable":
      return `${subject.subject}: unavailable in both reports: ${subject.unavailableReason ?? "(no reason given)"}`;
    case "added":
      return `${subject.subject}: only in the after report (a new subject)`;
    case "removed":
      return `${subject.subject}: only in the before report (no longer run)`;
    default:
      return (
        `${subject.subject}: ${plural(counts.regressions, "new failure")}, ${plural(counts.fixes, "fix")}, ` +
        `${counts.added} added, ${counts.removed} removed, ${counts.other} other (${counts.unchanged} unchanged)`
      );
  }
}

export function verdictLine(diff: ReportDiff): string {
  if (!diff.regressed) return "nothing regressed";
  const failures = diff.subjects.reduce((total, subject) => total + subject.counts.regressions, 0);
  const unavailable = diff.subjects.filter((subject) => subject.change === "became-unavailable").length;
  return `regressed: ${[failures ? plural(failures, "new failure") : "", unavailable ? `${plural(unavailable, "subject")} became unavailable` : ""].filter(Boolean).join(", ")}`;
}

export function renderDiffConsole(diff: ReportDiff): string {
  const lines = [`diff ${diff.before.file} -> ${diff.after.file}`];
  for (const note of diff.notes) lines.push(`note: ${note}`);
  for (const subject of diff.subjects) {
    lines.push(subjectHeadline(subject));
    for (const transition of subject.transitions) {
      const definition = transition.definitionChanged ? " (the scenario itself changed)" : "";
      lines.push(
        `  ${kindLabel[transition.kind].padEnd(12)} ${transition.scenario}  ${statusText(transition.before)} -> ${statusText(transition.after)}${definition}`,
      );
      lines.push(`      at ${transition.file}`);
      const checks = checksShown(transition);
      const word = transition.newChecks ? "new check" : transition.fixedChecks || transition.kind === "fixed" ? "now holds" : "check";
      for (const check of checks.slice(0, 5)) lines.push(`      ${word}: ${check}`);
      if (checks.length > 5) lines.push(`      ... and ${checks.length - 5} more`);
      for (const check of transition.unreachedChecks ?? []) lines.push(`      not reached now (an earlier step fails): ${check}`);
    }
  }
  lines.push(verdictLine(diff));
  return lines.join("\n");
}

const code = (text: string) => `\`${text.replace(/`/g, "'").replace(/\|/g, "\\|")}\``;
const cell = (text: string) => text.replace(/\|/g, "\\|").replace(/\n/g, " ");

export function transitionRows(transitions: Transition[], limit: number): string[] {
  const rows = transitions.slice(0, limit).map((transition) => {
    const checks = checksShown(transition).slice(0, 3).map(code).join("<br>");
    const more = checksShown(transition).length > 3 ? ` (+${checksShown(transition).length - 3})` : "";
    const definition = transition.definitionChanged ? " (scenario changed)" : "";
    return (
      `| ${transition.regression ? "🔴 " : transition.kind === "fixed" ? "🟢 " : ""}${kindLabel[transition.kind].toLowerCase()} | ${code(transition.scenario)}${definition} | ` +
      `${code(transition.file)} | ${statusText(transition.before)} → ${statusText(transition.after)} | ${checks}${more} |`
    );
  });
  if (transitions.length > limit) rows.push(`| … | ${transitions.length - limit} more (see the JSON diff) | | | |`);
  return rows;
}

export function renderDiffMarkdown(diff: ReportDiff, options: { limit?: number } = {}): string {
  const limit = options.limit ?? 50;
  const lines = [
    `## Conformance diff`,
    "",
    diff.regressed ? `**${verdictLine(diff)}**` : `✅ ${verdictLine(diff)}`,
    "",
    `\`${diff.before.file}\` (${diff.before.startedAt}) → \`${diff.after.file}\` (${diff.after.startedAt})`,
    "",
  ];
  if (diff.notes.length) lines.push(...diff.notes.map((note) => `> ${cell(note)}`), "");
  lines.push("| subject | new failures | fixes | added | removed | other | unchanged |", "|---|---|---|---|---|---|---|");
  for (const subject of diff.subjects) {
    if (subject.change !== "same") {
      lines.push(`| ${cell(subject.subject)} | ${cell(subjectHeadline(subject).slice(subject.subject.length + 2, 300))} | | | | | |`);
      continue;
    }
    const { counts } = subject;
    lines.push(
      `| ${cell(subject.subject)} | ${counts.regressions ? `**${counts.regressions}**` : 0} | ${counts.fixes} | ${counts.added} | ${counts.removed} | ${counts.other} | ${counts.unchanged} |`,
    );
  }
  for (const subject of diff.subjects.filter((each) => each.transitions.length)) {
    lines.push(
      "",
      `### ${cell(subject.subject)}`,
      "",
      "| change | scenario | where | before → after | checks |",
      "|---|---|---|---|---|",
      ...transitionRows(subject.transitions, limit),
    );
  }
  return `${lines.join("\n")}\n`;
}
