// The history as one self-contained HTML page (history.html): no outside request.
import type { Result } from "../../schema/report.types.ts";
import { cellState, cellStates, escapeHtml, statusCss } from "../cells.ts";
import { reasonDigest } from "../matrix.ts";
import { groupOrder, type History, type HistoryColumn } from "./model.ts";
import {
  changeSentence,
  clauseCell,
  columnNotes,
  columnTotals,
  describeChange,
  groupHeadings,
  historyCellLabel,
  legendText,
  ranNotes,
  substitutionSentences,
  title,
  type HistoryRenderOptions,
} from "./text.ts";

const breakable = (text: string) => escapeHtml(text).replace(/\./g, ".<wbr>");

const styles = `
body{font:14px/1.4 system-ui,sans-serif;margin:1em 1.5em;color:#222}
table{border-collapse:collapse;margin:1em 0 2em}
caption{text-align:left;font-size:1.25em;font-weight:bold;padding:.3em 0}
th,td{border:1px solid #ccc;padding:.2em .45em;text-align:left;vertical-align:top}
thead th{position:sticky;top:0;background:#f3f3f3}
:is(#history,#clauses){table-layout:fixed;width:100%}
:is(#history,#clauses) th.v{width:6.5em;font-size:12px}
:is(#history,#clauses) th.changed-in{width:16em}
code{overflow-wrap:anywhere}
tbody th{font-weight:normal}
td.c,.number{font:12px/1.5 ui-monospace,"DejaVu Sans Mono",monospace;text-align:center;white-space:nowrap}
.number{text-align:right}
tr.group th{background:#fafafa;font-weight:bold;color:#444}
${statusCss}
.na{color:#999}
.changed{font-weight:bold}
.muted{color:#555}
summary{cursor:pointer}
pre{white-space:pre-wrap;max-width:100em;margin:.4em 0}
`;

function htmlCell(column: HistoryColumn, result: Result | undefined): string {
  const label = historyCellLabel(column, result);
  if (label === "n/a") return `<td class="c na" title="${escapeHtml(column.label)}: unavailable">n/a</td>`;
  const state = cellState(result);
  const message = result && state !== "pass" && state !== "skip" && result.message ? `: ${result.message.slice(0, 500)}` : "";
  const expected = result?.expected && state !== "pass" ? ` (baseline: ${result.expected.reason})` : "";
  return `<td class="c ${state}" title="${escapeHtml(`${column.label}: ${cellStates[state].meaning}${message}${expected}`)}">${escapeHtml(label)}</td>`;
}

export function renderHistoryHtml(history: History, options: HistoryRenderOptions = {}): string {
  const { columns, rows } = history;
  // Version labels never break at their dots; several runners' subject names may (before the @).
  const heads = columns
    .map(
      (column) =>
        `<th scope="col" class="v">${escapeHtml(column.label).replace(/@/g, "<wbr>@")}${column.subject.available ? "" : '<br><span class="unavailable">unavailable</span>'}</th>`,
    )
    .join("");
  const versionRows = columns.map((column) => {
    const { subject } = column;
    const totals = columnTotals(column);
    const numbers = [totals.pass, totals.fail, totals.error, totals.xpass, totals.xfail, totals.xerror, totals.skip, totals.seconds];
    const status = subject.available
      ? `ran${ranNotes(column)
          .map((note) => ` <span class="muted">(${escapeHtml(note)})</span>`)
          .join("")}`
      : `<details><summary><span class="unavailable">unavailable</span>: ${escapeHtml(reasonDigest(subject.unavailableReason ?? ""))}</summary><pre>${escapeHtml(subject.unavailableReason ?? "")}</pre></details>`;
    const notes = columnNotes(column);
    const noteList = notes.length
      ? `<ul>${notes.map(([note, count]) => `<li>${escapeHtml(note)} <span class="muted">(${count})</span></li>`).join("")}</ul>`
      : "";
    return `<tr><th scope="row">${escapeHtml(column.label)}</th><td>${escapeHtml(subject.name)}</td><td>${escapeHtml(subject.package)}</td><td>${status}</td>${numbers.map((number) => `<td class="number">${subject.available ? number : "-"}</td>`).join("")}<td>${noteList}</td></tr>`;
  });
  const numberHeads = ["ok", "FAIL", "ERR", "XPASS", "xfail", "xerr", "skip", "time (s)"]
    .map((head) => `<th scope="col" class="number">${head}</th>`)
    .join("");
  const bodies = groupOrder.map((group) => {
    const mine = rows.filter((row) => row.group === group);
    if (!mine.length) return "";
    const body = mine.map((row) => {
      const changedIn = row.changes.map((change) => escapeHtml(describeChange(history, change))).join("<br>");
      return `<tr class="${group}"><th scope="row"><code>${breakable(row.scenario)}</code></th>${row.cells.map((cell, index) => htmlCell(columns[index], cell)).join("")}<td>${changedIn}</td></tr>`;
    });
    return `<tbody id="group-${group}"><tr class="group"><th colspan="${columns.length + 2}">${escapeHtml(groupHeadings[group])} (${mine.length})</th></tr>${body.join("")}</tbody>`;
  });
  const clauseBody = history.clauses.map(
    (clause) =>
      `<tr${clause.changedAt !== undefined ? ' class="changed"' : ""}><th scope="row"><code>${breakable(clause.clause)}</code></th>${clause.counts.map((counts, index) => `<td class="c${counts ? "" : " na"}"${counts ? ` title="${counts.pass} pass, ${counts.fail} fail, ${counts.error} error, ${counts.skip} skip, ${counts.baselined} of the failures baselined"` : ""}>${clauseCell(columns[index], counts)}</td>`).join("")}<td>${clause.changedAt !== undefined ? escapeHtml(columns[clause.changedAt].label) : ""}</td></tr>`,
  );
  const legend = legendText
    .split(" · ")
    .map((item) => `<span>${escapeHtml(item)}</span>`)
    .join(" · ");
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>${escapeHtml(title(history))}</title>
<style>${styles}</style></head><body>
<h1>${escapeHtml(title(history))}</h1>
${options.command ? `<p class="muted">Produced by <code>${escapeHtml(options.command)}</code> (${escapeHtml(history.startedAt)} to ${escapeHtml(history.finishedAt)}).</p>` : ""}
<p><strong>${escapeHtml(changeSentence(history))}</strong></p>${substitutionSentences(history)
    .map((sentence) => `<p>${escapeHtml(sentence)}</p>`)
    .join("")}
<p class="muted">${legend}</p>
<table id="versions"><caption>Versions</caption><thead><tr><th scope="col">version</th><th scope="col">subject</th><th scope="col">package</th><th scope="col">status</th>${numberHeads}<th scope="col">runner notes</th></tr></thead><tbody>${versionRows.join("")}</tbody></table>
<table id="history"><caption>Scenarios</caption><thead><tr><th scope="col">scenario</th>${heads}<th scope="col" class="changed-in">changed in</th></tr></thead>
${bodies.join("\n")}
</table>
<table id="clauses"><caption>Per SPEC clause: passing / failing (errors and baselined failures included)</caption><thead><tr><th scope="col">clause</th>${heads}<th scope="col" class="changed-in">changed in</th></tr></thead><tbody>${clauseBody.join("")}</tbody></table>
</body></html>
`;
}
