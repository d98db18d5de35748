// The compliance matrix as one self-contained HTML page (no external CSS, script or font): scenarios x
// subjects, and every red cell a link to its failure, diff included, one click away.
import { describeOrigin } from "./origin.ts";
import type { Report, Result } from "../schema/report.types.ts";
import { formatDifference } from "./console.ts";
import { cellSymbol, matrixData } from "./matrix.ts";

const escapeHtml = (text: string) =>
  text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;").replace(/'/g, "&#39;");

const cellClass = (result: Result | undefined) =>
  !result ? "none" : result.outcome === "unexpected-pass" ? "stale" : result.status === "pass" ? "pass" : result.status === "skip" ? "skip" : result.outcome === "as-expected" ? "expected" : "fail";

function detail(result: Result, anchor: string): string {
  const failures = (result.failures ?? [])
    .map((failure) => {
      const diff = (failure.diff ?? []).map((difference) => `<li><code>${escapeHtml(formatDifference(difference))}</code></li>`).join("");
      const actual = !failure.diff?.length && failure.actual !== undefined ? `<pre>${escapeHtml(JSON.stringify(failure.actual, null, 2).slice(0, 4000))}</pre>` : "";
      return `<div class="failure"><p>${escapeHtml(failure.message)}</p>${failure.because ? `<p class="because">because: ${escapeHtml(failure.because)}</p>` : ""}${diff ? `<ul class="diff">${diff}</ul>` : ""}${actual}</div>`;
    })
    .join("");
  const expected = result.expected
    ? `<p class="baseline">baseline (${escapeHtml(result.expected.classification ?? "")}, ${escapeHtml(result.expected.clause ?? "")}): ${escapeHtml(result.expected.reason)}</p>`
    : "";
  const stderr = result.stderr ? `<details><summary>runner stderr</summary><pre>${escapeHtml(result.stderr)}</pre></details>` : "";
  return `<section class="detail" id="${anchor}">
<h3>${escapeHtml(result.scenario)} on ${escapeHtml(result.subject)}: ${result.status}${result.outcome && result.outcome !== "as-expected" ? ` (${result.outcome})` : ""}</h3>
<p class="meta">${escapeHtml(result.file)} · clauses ${result.spec.map((clause) => `<code>${escapeHtml(clause)}</code>`).join(" ")} · ${result.durationMs} ms</p>
${expected}${result.failures?.length ? "" : `<p>${escapeHtml(result.message)}</p>`}${failures}${stderr}
</section>`;
}

export function renderHtmlMatrix(report: Report): string {
  const subjects = report.subjects;
  const { scenarios, cell, totals } = matrixData(report);
  const details: string[] = [];
  const rows = scenarios.map((scenario) => {
    const cells = subjects.map((subject) => {
      const result = cell(subject.name, scenario);
      const symbol = escapeHtml(cellSymbol(result));
      if (!result || result.status === "pass") return `<td class="${cellClass(result)}">${symbol}</td>`;
      const anchor = `d${details.length}`;
      details.push(detail(result, anchor));
      return `<td class="${cellClass(result)}"><a href="#${anchor}" title="${escapeHtml(result.message)}">${symbol}</a></td>`;
    });
    return `<tr><th scope="row"><code>${escapeHtml(scenario)}</code></th>${cells.join("")}</tr>`;
  });
  const subjectRows = subjects
    .map((subject) => {
      const state = subject.available ? escapeHtml(subject.version) : `<span class="unavailable">unavailable</span><pre>${escapeHtml(subject.unavailableReason ?? "")}</pre>`;
      return `<tr><th scope="row">${escapeHtml(subject.name)}</th><td>${escapeHtml(subject.language)}</td><td>${escapeHtml(subject.package)}</td><td>${state}</td><td>${escapeHtml(describeOrigin(subject.build))}</td>${totals(subject.name).map((total) => `<td>${total}</td>`).join("")}</tr>`;
    })
    .join("");
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>toolnexus compliance matrix</title>
<style>
body{font:14px/1.4 system-ui,sans-serif;margin:1.5em;color:#222}
table{border-collapse:collapse;margin-bottom:1.5em}th,td{border:1px solid #ccc;padding:.25em .5em;text-align:left;vertical-align:top}
td.pass{background:#e6f4e6}td.fail{background:#fbe3e3}td.expected{background:#fff3d6}td.skip{background:#eee}td.stale{background:#fbe3e3}
td a{text-decoration:none;display:block}.detail{display:none;border:1px solid #c66;padding:.5em 1em;margin:1em 0}
.detail:target{display:block}.diff code{white-space:pre-wrap}.unavailable{color:#a00;font-weight:bold}pre{white-space:pre-wrap;max-width:70em}
.legend{color:#555}
</style></head><body>
<h1>toolnexus compliance matrix</h1>
<p class="legend">Run ${escapeHtml(report.startedAt)} – ${escapeHtml(report.finishedAt)}. ✅ pass · ❌ fail · 💥 error · ⏭ skipped (capability not declared) · ⚠ expected by the subject's baseline · ❗ listed as expected but passed. Click a cell for its failure.</p>
<h2>Subjects</h2>
<table><thead><tr><th>subject</th><th>language</th><th>package</th><th>version</th><th>built from</th><th>pass</th><th>fail</th><th>error</th><th>skip</th><th>time (s)</th></tr></thead><tbody>${subjectRows}</tbody></table>
<h2>Scenarios</h2>
<table id="matrix"><thead><tr><th>scenario</th>${subjects.map((subject) => `<th>${escapeHtml(subject.name)}</th>`).join("")}</tr></thead><tbody>
${rows.join("\n")}
</tbody></table>
<h2>Failures</h2>
${details.join("\n")}
</body></html>
`;
}
