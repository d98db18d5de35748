// What a result's cell shows on the HTML pages (the matrix, html.ts, and the history, history/html.ts):
// its state, label and meaning, the colours of the labels, the row classes the failure filters use,
// and the one HTML escaping both pages write text with.
import type { Result } from "../schema/report.types.ts";

export const escapeHtml = (text: string) =>
  text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;").replace(/'/g, "&#39;");

/** The colours of the status labels (a second cue: each label says its status in text), shared with the history page. */
export const statusCss = `.pass{background:#e4f3e4;color:#1b5e20}
.fail,.error,.xpass{background:#c62828;color:#fff;font-weight:bold}
.error{background:#6a1b9a}
.xpass{background:#fff;color:#b71c1c;outline:2px dashed #c62828;outline-offset:-3px}
.xfail,.xerror{background:#fff1c7;color:#6d4c00}
.skip{background:#eee;color:#666}
.none{color:#999}
.unavailable{color:#a00;font-weight:bold}`;

/** What a cell shows. Text, not emoji: Debian's Chromium has no emoji font and draws emoji as empty boxes. */
export type CellState = "pass" | "fail" | "error" | "xpass" | "flaky" | "xfail" | "xerror" | "skip" | "none";
export const cellStates: Record<CellState, { label: string; meaning: string }> = {
  fail: { label: "FAIL", meaning: "new failure" },
  error: { label: "ERR", meaning: "new error" },
  xpass: { label: "XPASS", meaning: "passed (wholly, or on a check) though the baseline lists it as failing" },
  flaky: {
    label: "FLAKY",
    meaning: "the runs of run --repeat disagreed (in status or failing checks) and no strict: false entry accepts it",
  },
  xfail: { label: "xfail", meaning: "failure the baseline expects" },
  xerror: { label: "xerr", meaning: "error the baseline expects" },
  pass: { label: "ok", meaning: "pass" },
  skip: { label: "skip", meaning: "skipped (capability not declared)" },
  none: { label: "-", meaning: "no result" },
};

export function cellState(result: Result | undefined): CellState {
  if (!result) return "none";
  if (result.outcome === "unexpected-pass") return "xpass";
  if (result.outcome === "flaky") return "flaky";
  if (result.status === "pass" || result.status === "skip") return result.status;
  const baselined = result.outcome === "as-expected";
  if (result.status === "error") return baselined ? "xerror" : "error";
  return baselined ? "xfail" : "fail";
}

const isNew = (state: CellState) => state === "fail" || state === "error" || state === "xpass" || state === "flaky";
export const isBaselined = (state: CellState) => state === "xfail" || state === "xerror";

/** A row's class for the failures-only filters: something new, only baselined failures, or nothing failing. */
export const rowClass = (states: CellState[]) => (states.some(isNew) ? "new" : states.some(isBaselined) ? "known" : "clean");
