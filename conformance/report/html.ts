// The compliance matrix as one self-contained HTML page (no external CSS, script or font): scenarios x
// subjects, and every red cell a link to its failure, diff included, one click away. Summaries by
// scenario family and SPEC clause come first, and CSS-only filters show failures (or new ones) only, or
// the odd one out (odd-one-out.ts).
import { describeOrigin } from "./origin.ts";
import type { Report, Result } from "../schema/report.types.ts";
import { formatDifference, formatNotRun } from "./console.ts";
import { matrixData, reasonDigest } from "./matrix.ts";
import { oddOneOut } from "./odd-one-out.ts";
import { describeRepeat } from "./repeat.ts";
import { cellState, cellStates, escapeHtml, isBaselined, rowClass, statusCss, type CellState } from "./cells.ts";

/** An id that may wrap at its dots (and a subject name before its @), so long ids never widen the page. */
const breakable = (text: string) => escapeHtml(text).replace(/\./g, ".<wbr>").replace(/@/g, "<wbr>@");
/** A package or a path that may wrap after its slashes, colons and dots (not a version's), and before an @. */
const breakablePath = (text: string) =>
  escapeHtml(text)
    .replace(/([/:]|\.(?=[A-Za-z]))/g, "$1<wbr>")
    .replace(/@/g, "<wbr>@");

/** The folder a scenario lives in (`mcp/allowlist` for `mcp/allowlist/absent[...]`): ids are file paths. */
const familyOf = (scenario: string) => scenario.replace(/\[.*$/, "").split("/").slice(0, -1).join("/") || scenario;

interface Tally {
  total: number;
  pass: number;
  fresh: number; // new failures and errors
  stale: number; // passed though the baseline lists them (XPASS)
  baselined: number;
  skip: number;
}

function tally(states: CellState[]): Tally {
  return {
    total: states.length,
    pass: states.filter((state) => state === "pass").length,
    fresh: states.filter((state) => state === "fail" || state === "error" || state === "flaky").length,
    stale: states.filter((state) => state === "xpass").length,
    baselined: states.filter(isBaselined).length,
    skip: states.filter((state) => state === "skip").length,
  };
}

/** A summary cell: passes of all, then what is new and what is baselined, in words as well as colour. */
function summaryCell(subject: string, group: string, counts: Tally): string {
  if (!counts.total) return `<td class="none" aria-label="${escapeHtml(subject)}: no result">-</td>`;
  const parts = [`${counts.pass}/${counts.total}`];
  if (counts.fresh) parts.push(`${counts.fresh} new`);
  if (counts.stale) parts.push(`${counts.stale} XPASS`);
  if (counts.baselined) parts.push(`${counts.baselined} xfail`);
  if (counts.skip) parts.push(`${counts.skip} skip`);
  const state = counts.fresh
    ? "fail"
    : counts.stale
      ? "xpass"
      : counts.baselined
        ? "xfail"
        : counts.skip === counts.total
          ? "skip"
          : "pass";
  const words =
    `${escapeHtml(subject)}: ${counts.pass} of ${counts.total} pass in ${escapeHtml(group)}, ${counts.fresh} new failures, ` +
    `${counts.stale} passed though baselined, ${counts.baselined} baselined failures, ${counts.skip} skipped`;
  return `<td class="${state}" title="${words}" aria-label="${words}">${parts.map((part) => `<span>${part}</span>`).join(" ")}</td>`;
}

function summaryTable(
  id: string,
  heading: string,
  groupName: string,
  groups: Map<string, Result[]>,
  subjects: string[],
  link?: (group: string) => string,
): string {
  const rows = [...groups.keys()].sort().map((group) => {
    const mine = groups.get(group)!;
    const perSubject = subjects.map((subject) => mine.filter((result) => result.subject === subject).map(cellState));
    const label = link ? `<a href="${link(group)}">${breakable(group)}</a>` : breakable(group);
    return `<tr class="${rowClass(perSubject.flat())}"><th scope="row">${label}</th>${perSubject.map((states, index) => summaryCell(subjects[index], group, tally(states))).join("")}</tr>`;
  });
  return (
    `<table id="${id}" class="summary"><caption>${heading}</caption><thead><tr><th scope="col">${groupName}</th>` +
    `${subjects.map((subject) => `<th scope="col">${breakable(subject)}</th>`).join("")}</tr></thead>` +
    `<tbody>${rows.join("")}</tbody></table>`
  );
}

function groupBy(results: Result[], keys: (result: Result) => string[]): Map<string, Result[]> {
  const groups = new Map<string, Result[]>();
  for (const result of results) for (const key of keys(result)) groups.set(key, [...(groups.get(key) ?? []), result]);
  return groups;
}

const badge = (state: CellState) => `<span class="status ${state}">${cellStates[state].label}</span>`;

function detail(result: Result, anchor: string): string {
  const failures = (result.failures ?? [])
    .map((failure) => {
      const diff = (failure.diff ?? []).map((difference) => `<li><code>${escapeHtml(formatDifference(difference))}</code></li>`).join("");
      const actual =
        !failure.diff?.length && failure.actual !== undefined
          ? `<pre>${escapeHtml(JSON.stringify(failure.actual, null, 2).slice(0, 4000))}</pre>`
          : "";
      return (
        `<div class="failure"><p>${escapeHtml(failure.message)}</p><p class="meta">check <code>${escapeHtml(failure.check)}</code></p>` +
        `${failure.because ? `<p class="because">because: ${escapeHtml(failure.because)}</p>` : ""}${diff ? `<ul class="diff">${diff}</ul>` : ""}${actual}</div>`
      );
    })
    .join("");
  const expected = result.expected
    ? `<p class="baseline">baseline (${escapeHtml(result.expected.classification ?? "")}, ${escapeHtml(result.expected.clause ?? "")}): ${escapeHtml(result.expected.reason)}</p>`
    : "";
  const checkList = (checks: string[]) => checks.map((check) => `<code>${escapeHtml(check)}</code>`).join(", ");
  const judged = [
    result.unlistedChecks?.length
      ? `<p class="baseline">failed on checks the baseline entry does not list: ${checkList(result.unlistedChecks)}</p>`
      : "",
    result.staleChecks?.length
      ? `<p class="baseline">listed checks that now hold (remove them from the entry): ${checkList(result.staleChecks)}</p>`
      : "",
    result.repeat ? `<p class="baseline">${result.repeat.flaky ? "flaky: " : ""}${escapeHtml(describeRepeat(result.repeat))}</p>` : "",
  ].join("");
  const notRun = formatNotRun(result.notRun ?? [])
    .map((line) => `<p class="meta">${escapeHtml(line)}</p>`)
    .join("");
  const stderr = result.stderr ? `<details><summary>runner stderr</summary><pre>${escapeHtml(result.stderr)}</pre></details>` : "";
  return `<section class="detail" id="${anchor}">
<h3>${badge(cellState(result))} ${escapeHtml(result.scenario)} on ${escapeHtml(result.subject)}: ${result.status}${result.outcome && result.outcome !== "as-expected" ? ` (${result.outcome})` : ""}</h3>
<p class="meta">${escapeHtml(result.file)} · clauses ${result.spec.map((clause) => `<code>${escapeHtml(clause)}</code>`).join(" ")} · ${result.durationMs} ms</p>
${expected}${judged}${result.failures?.length ? "" : `<p>${escapeHtml(result.message)}</p>`}${failures}${notRun}${stderr}
</section>`;
}

function subjectsTable(report: Report, states: (subject: string) => CellState[], seconds: (subject: string) => string | number): string {
  const rows = report.subjects.map((subject) => {
    const mine = states(subject.name);
    const counts = tally(mine);
    const count = (state: CellState) => mine.filter((each) => each === state).length;
    const status = subject.available ? escapeHtml(subject.version) : `<span class="unavailable">unavailable</span>`;
    const numbers = [counts.pass, count("fail"), count("error"), count("xpass"), counts.baselined, counts.skip, seconds(subject.name)];
    const row =
      `<tr><th scope="row">${breakable(subject.name)}</th><td class="wrap">${breakablePath(subject.package)} <span class="muted">(${escapeHtml(subject.language)})</span></td><td>${status}</td>` +
      `<td class="wrap">${breakablePath(describeOrigin(subject.build))}</td>` +
      `${numbers.map((number) => `<td class="number">${subject.available ? number : "-"}</td>`).join("")}</tr>`;
    if (subject.available) return row;
    // The installer's whole log stays one click away under its row, its digest in view.
    const reason = subject.unavailableReason ?? "";
    const lines = reason.split("\n").length;
    return (
      `${row}<tr class="log"><td colspan="${4 + numbers.length}"><details><summary>why unavailable: ` +
      `${escapeHtml(reasonDigest(reason))}${lines > 1 ? ` <span class="muted">(${lines} lines)</span>` : ""}</summary>` +
      `<pre>${escapeHtml(reason)}</pre></details></td></tr>`
    );
  });
  const numberHeads = ["ok", "FAIL", "ERR", "XPASS", "xfail", "skip", "time (s)"]
    .map((head) => `<th scope="col" class="number">${head}</th>`)
    .join("");
  return (
    `<table id="subjects"><caption>Subjects</caption><thead><tr><th scope="col">subject</th><th scope="col">package (language)</th><th scope="col">version</th>` +
    `<th scope="col">built from</th>${numberHeads}</tr></thead><tbody>${rows.join("")}</tbody></table>`
  );
}

const styles = `
:root{--bar:2.4rem}
body{font:14px/1.4 system-ui,sans-serif;margin:0 1.5em 1.5em;color:#222}
.bar{position:sticky;top:0;z-index:3;height:var(--bar);display:flex;align-items:center;gap:1.2em;background:#fff;border-bottom:1px solid #ccc;white-space:nowrap;overflow:hidden}
.bar label{font-weight:bold}
table{border-collapse:separate;border-spacing:0;margin:1em 0 2em;border-top:1px solid #ccc;border-left:1px solid #ccc}
caption{text-align:left;font-size:1.25em;font-weight:bold;padding:.3em 0}
th,td{border-right:1px solid #ccc;border-bottom:1px solid #ccc;padding:.2em .45em;text-align:left;vertical-align:top}
thead th{position:sticky;top:var(--bar);z-index:2;background:#f3f3f3}
th code,pre,.detail code{overflow-wrap:anywhere}.wrap{overflow-wrap:break-word}
tbody th{font-weight:normal}#subjects tbody th{font-weight:bold}
/* Equal subject columns; the id column takes what is left and wraps at dots. */
:is(#matrix,.summary){table-layout:fixed;width:100%}:is(#matrix,.summary) thead th:not(:first-child){width:5.5em;font-size:12px;overflow-wrap:anywhere}
:is(#matrix,.summary) :is(td,thead th:not(:first-child)){padding:.2em .3em}
.number{text-align:right;font:12px/1.5 ui-monospace,"DejaVu Sans Mono",monospace}thead .number{font-weight:bold}
#matrix td,.summary td,.status{font:12px/1.5 ui-monospace,"DejaVu Sans Mono",monospace;text-align:center;white-space:nowrap}
.summary td{white-space:normal}.summary td span{white-space:nowrap}
#matrix td a{display:block;color:inherit;text-decoration:none}
tr.family th{background:#fafafa;font-weight:normal;color:#555}
.status{display:inline-block;min-width:3.2em;padding:0 .3em;border:1px solid #ccc}
${statusCss}
tr.log td{background:#fff8f8;font-size:13px}
tr.log summary{cursor:pointer;color:#555;overflow-wrap:anywhere}
pre{white-space:pre-wrap;max-width:100em;margin:.4em 0}
.muted,.legend{color:#555}
.legend .item{white-space:nowrap;margin-right:.8em}
.detail{display:none;border:1px solid #c66;padding:.5em 1em;margin:1em 0}
.detail:target{display:block}
.diff code{white-space:pre-wrap}
body:has(#failures-only:checked) :is(#matrix,.summary) tr.clean,
body:has(#new-only:checked) :is(#matrix,.summary) tr:is(.clean,.known),
body:has(#failures-only:checked) #matrix tbody:not(:has(tr.known,tr.new)),
body:has(#new-only:checked) #matrix tbody:not(:has(tr.new)),
body:has(#odd-only:checked) #matrix tbody tr:not(.odd,.family),
body:has(#odd-only:checked) #matrix tbody:not(:has(tr.odd)),
body:has(#odd-only:checked) .summary{display:none}
#matrix td.odd{box-shadow:inset 0 0 0 3px #1565c0}
.bar label.off{font-weight:normal;color:#777}
`;

/** The odd-one-out filter: off (and saying why) with fewer than three subjects, its count beside it otherwise. */
function oddFilter(odd: ReturnType<typeof oddOneOut>): string {
  if (!odd.applicable)
    return `<label class="off" title="${escapeHtml(odd.reason)}"><input type="checkbox" id="odd-only" disabled> odd one out (needs 3 subjects)</label>`;
  return `<label title="scenarios where exactly one subject differs from all the others"><input type="checkbox" id="odd-only"> odd one out (${odd.scenarios.size})</label>`;
}

export function renderHtmlMatrix(report: Report, title: string): string {
  const { scenarios, cell, totals } = matrixData(report);
  // Columns only for subjects that ran: an unavailable one has no results, and its row above says why.
  const ran = report.subjects
    .filter((subject) => report.results.some((result) => result.subject === subject.name))
    .map((subject) => subject.name);
  const missing = report.subjects.filter((subject) => !ran.includes(subject.name)).map((subject) => subject.name);
  const details: string[] = [];
  const odd = oddOneOut(report);
  const oddSubject = (scenario: string) => (odd.applicable ? odd.scenarios.get(scenario)?.subject : undefined);
  const families = new Map<string, string[]>();
  for (const scenario of scenarios) families.set(familyOf(scenario), [...(families.get(familyOf(scenario)) ?? []), scenario]);
  const bodies = [...families].map(([family, members]) => {
    const rows = members.map((scenario) => {
      const results = ran.map((subject) => cell(subject, scenario));
      const loner = oddSubject(scenario);
      const cells = results.map((result, index) => {
        const state = cellState(result);
        const isOdd = ran[index] === loner;
        const { meaning } = cellStates[state];
        // The odd cell says so in text too (a star and its words), not by its outline alone.
        const label = `${cellStates[state].label}${isOdd ? "*" : ""}`;
        const words = `${escapeHtml(ran[index])}: ${meaning}${isOdd ? ", the odd one out (the only subject that differs from all the others)" : ""}`;
        const classes = `${state}${isOdd ? " odd" : ""}`;
        if (!result || state === "pass" || state === "skip")
          return `<td class="${classes}" title="${words}" aria-label="${words}">${label}</td>`;
        const anchor = `d${details.length}`;
        details.push(detail(result, anchor));
        return `<td class="${classes}" aria-label="${words}"><a href="#${anchor}" title="${words}: ${escapeHtml(result.message.slice(0, 500))}">${label}</a></td>`;
      });
      return `<tr class="${rowClass(results.map(cellState))}${loner ? " odd" : ""}"><th scope="row"><code>${breakable(scenario)}</code></th>${cells.join("")}</tr>`;
    });
    return `<tbody><tr class="family" id="family-${escapeHtml(family)}"><th colspan="${ran.length + 1}">${escapeHtml(family)}</th></tr>${rows.join("")}</tbody>`;
  });
  const resultsOf = (subject: string) => report.results.filter((result) => result.subject === subject).map(cellState);
  const byFamily = summaryTable(
    "by-family",
    "By scenario family",
    "family",
    groupBy(report.results, (result) => [familyOf(result.scenario)]),
    ran,
    (family) => `#family-${escapeHtml(family)}`,
  );
  const byClause = summaryTable(
    "by-clause",
    "By SPEC clause",
    "clause",
    groupBy(report.results, (result) => result.spec),
    ran,
  );
  // FLAKY only where runs were repeated: a single run's page stays as it was.
  const repeated = report.results.some((result) => result.repeat);
  const shown = (Object.keys(cellStates) as CellState[]).filter((state) => state !== "flaky" || repeated);
  const legend = shown.map((state) => `<span class="item">${badge(state)} ${escapeHtml(cellStates[state].meaning)}</span>`).join(" ");
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>${escapeHtml(title)} compliance matrix</title>
<style>${styles}${repeated ? "\n.flaky{background:#fff;color:#b71c1c;outline:2px dashed #c62828;outline-offset:-3px}" : ""}</style></head><body>
<nav class="bar"><a href="#subjects">subjects</a><a href="#by-family">by family</a><a href="#by-clause">by clause</a><a href="#matrix">matrix</a><a href="#failures">failures</a>
<label><input type="checkbox" id="failures-only"> failures only</label><label><input type="checkbox" id="new-only"> new failures only</label>${oddFilter(odd)}</nav>
<h1>${escapeHtml(title)} compliance matrix</h1>
<p class="muted">Run ${escapeHtml(report.startedAt)} to ${escapeHtml(report.finishedAt)}. A red cell links to its failure and diff; "new" is what the subject's baseline does not list.</p>
<p class="legend">${legend} <span class="item">* the odd one out: ${odd.applicable ? "the only subject that differs from all the others" : escapeHtml(odd.reason)}</span></p>
${subjectsTable(report, resultsOf, (subject) => totals(subject)[4])}
${byFamily}
${byClause}
<table id="matrix"><caption>Scenarios</caption><thead><tr><th scope="col">scenario</th>${ran.map((subject) => `<th scope="col">${breakable(subject)}</th>`).join("")}</tr></thead>
${bodies.join("\n")}
</table>
${missing.length ? `<p class="muted">No results, so no column: ${missing.map(escapeHtml).join(", ")}.</p>` : ""}
<h2 id="failures">Failures</h2>
${details.join("\n")}
</body></html>
`;
}
