// What this machine obtains, for people: one line per runner on the console (npm test prints it at its
// start and its end), and a Markdown table for the CI step summary. The decision itself is
// conformance/subjects/obtainability.ts; this only says it, with the client's own telling line.
import type { Obtainability, RunnerObtainability } from "../schema/obtainability.types.ts";
import { verdictFor } from "../subjects/obtainability.ts";

interface RunnerLine {
  runner: string;
  state: "obtainable" | "REFUSED" | "NOT OBTAINABLE" | "UNDECIDED";
  tools: string;
  why: string;
}

function toolsText(runner: RunnerObtainability): string {
  return runner.toolchains
    .map((tool) => (tool.found ? `${tool.tool} (${tool.version ?? "version unknown"})` : `${tool.tool} missing`))
    .join(", ");
}

function runnerLine(decision: Obtainability, runner: RunnerObtainability): RunnerLine {
  const published = verdictFor(decision, runner.name);
  const base = { runner: runner.name, tools: toolsText(runner) };
  if (published.here === "no") return { ...base, state: "NOT OBTAINABLE", why: published.why };
  if (published.here === "undecided") return { ...base, state: "UNDECIDED", why: published.why };
  // Refused: the published package is a failure where it is required; a source build is still obtainable.
  if (runner.port.answer === "refused") {
    const source = verdictFor(decision, `${runner.name}@source`);
    return { ...base, state: "REFUSED", why: `${published.why} (${source.subject} obtainable: ${source.why})` };
  }
  return { ...base, state: "obtainable", why: published.why };
}

const stateNotes = {
  obtainable: "its toolchain is here and its package client reaches its registry (or the runner has no probe)",
  REFUSED: "the registry answered and does not serve the pinned package: where it is required, that is a failure",
  "NOT OBTAINABLE": "excused here: a toolchain is missing or the package client could not reach its registry at all",
  UNDECIDED: "the package client did not answer within the probe's bound: not excused",
};

/** Console lines: a heading, one line per runner, and what each state means. */
export function formatObtainability(decision: Obtainability, heading = "what this machine obtains"): string[] {
  const lines = decision.runners.map((runner) => runnerLine(decision, runner));
  const width = Math.max(0, ...lines.map((line) => line.runner.length));
  const states = new Set(lines.map((line) => line.state));
  return [
    `${heading} (decided ${decision.decidedAt}):`,
    ...lines.map((line) => `  ${line.runner.padEnd(width)}  ${line.state.padEnd(14)}  ${line.tools ? `${line.tools}; ` : ""}${line.why}`),
    ...[...states].map((state) => `  (${state}: ${stateNotes[state]})`),
  ];
}

const cell = (text: string) => text.replace(/\|/g, "\\|").replace(/\n/g, " ");

/** The step summary's table: the same lines as the console. */
export function renderObtainabilityMarkdown(decision: Obtainability): string {
  const rows = decision.runners.map((runner) => runnerLine(decision, runner));
  return [
    `### What this machine obtains (decided ${decision.decidedAt})`,
    "",
    "| runner | state | toolchain | why |",
    "|---|---|---|---|",
    ...rows.map((row) => `| ${row.runner} | ${row.state} | ${cell(row.tools)} | ${cell(row.why)} |`),
    "",
  ].join("\n");
}
