// `conformance history`: the history matrix rendered from synthetic reports (changes, ordering,
// per-clause totals, unavailable versions, baselined cells), version ranges and lists, merge of one
// runner's versions, and the command end to end from existing reports. No real runner runs here.
import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runCli } from "../helpers.ts";
import { parseVersionsOption, resolveVersions, versionsInRange } from "../../../conformance/cli/history.ts";
import { UsageError } from "../../../conformance/common/usage-error.ts";
import { judge } from "../../../conformance/report/baseline.ts";
import { compareVersions, sortVersions } from "../../../conformance/common/versions.ts";
import { renderHistoryHtml } from "../../../conformance/report/history/html.ts";
import { renderHistoryMarkdown } from "../../../conformance/report/history/markdown.ts";
import { buildHistory, subjectVersion } from "../../../conformance/report/history/model.ts";
import { describeChange, substitutionChanges } from "../../../conformance/report/history/text.ts";
import { mergeReports, validateReport } from "../../../conformance/report/json-report.ts";
import type { Entry } from "../../../conformance/schema/baseline.types.ts";
import type { Report, Status, ReportSubject } from "../../../conformance/schema/report.types.ts";
import type { RunnerManifest } from "../../../runners/protocol/runner-manifest.types.ts";

// ---------------------------------------------------------------------------------------------
// Synthetic reports: python over five releases, the oldest unavailable.

const clauses: Record<string, string[]> = {
  "client.retry.after-zero": ["client.retry-after"],
  "client.retry.after-seconds": ["client.retry-after"],
  "client.run.no-toolkit": ["client.toolkit"],
  "client.stream.order": ["client.stream"],
  "client.late.fix": ["client.late"],
  "mcp.allowlist.empty": ["mcp.allowlist"],
  "mcp.allowlist.star": ["mcp.allowlist"],
};

/** Each scenario's status per version ("-" no result), and which versions' baselines list it. */
const statuses: Record<string, Record<string, Status | "-">> = {
  "client.retry.after-zero": { "0.12.0": "fail", "0.16.0": "pass", "0.20.0": "pass", "0.21.0": "pass" }, // a fix in 0.16.0
  "client.retry.after-seconds": { "0.12.0": "pass", "0.16.0": "pass", "0.20.0": "pass", "0.21.0": "pass" },
  "client.run.no-toolkit": { "0.12.0": "error", "0.16.0": "error", "0.20.0": "pass", "0.21.0": "pass" }, // a fix in 0.20.0
  "client.stream.order": { "0.12.0": "pass", "0.16.0": "pass", "0.20.0": "pass", "0.21.0": "fail" }, // a regression in 0.21.0
  "client.late.fix": { "0.12.0": "fail", "0.16.0": "-", "0.20.0": "pass", "0.21.0": "pass" }, // not run in 0.16.0
  "mcp.allowlist.empty": { "0.12.0": "fail", "0.16.0": "fail", "0.20.0": "fail", "0.21.0": "fail" }, // baselined everywhere
  "mcp.allowlist.star": { "0.12.0": "fail", "0.16.0": "fail", "0.20.0": "fail", "0.21.0": "fail" }, // baselined only in 0.21.0
};
const baselined: Record<string, string[]> = {
  "0.12.0": ["mcp.allowlist.empty"],
  "0.16.0": ["mcp.allowlist.empty"],
  "0.20.0": ["mcp.allowlist.empty"],
  "0.21.0": ["mcp.allowlist.empty", "mcp.allowlist.star"],
};

const subject = (name: string, version: string, available = true, unavailableReason?: string): ReportSubject => ({
  name,
  language: "python",
  package: `toolnexus==${version}`,
  version,
  capabilities: [],
  available,
  ...(unavailableReason ? { unavailableReason } : {}),
});

/** One version's report, as `run --runner python@VERSION --json` writes it; the pinned one is named just "python". */
function versionReport(version: string, name = `python@${version}`): Report {
  const baseline = new Map<string, Entry>(
    (baselined[version] ?? []).map((scenario) => [
      scenario,
      { scenario, status: "fail", reason: "the port differs", clause: "mcp.allowlist", classification: "port-differs" },
    ]),
  );
  const results = Object.entries(statuses)
    .filter(([, byVersion]) => byVersion[version] !== "-")
    .map(([scenario, byVersion]) =>
      judge(
        {
          scenario,
          baseId: scenario,
          title: "t",
          file: "fixtures/scenarios/x.yaml",
          subject: name,
          status: byVersion[version] as Status,
          durationMs: 10,
          message: byVersion[version] === "pass" ? "" : "x.yaml:3: step 1 (op client.run), result at /value: differs",
          spec: clauses[scenario],
          tags: [],
          ...(scenario === "client.run.no-toolkit" && version === "0.20.0" ? { notes: ["passed an empty toolkit"] } : {}),
        },
        baseline,
      ),
    );
  return {
    version: 1,
    startedAt: "2026-11-29T10:00:00.000Z",
    finishedAt: "2026-11-29T10:01:00.000Z",
    subjects: [subject(name, version)],
    results,
  };
}

const unavailableReport = (): Report => ({
  version: 1,
  startedAt: "2026-11-29T09:59:00.000Z",
  finishedAt: "2026-11-29T09:59:01.000Z",
  subjects: [
    subject(
      "python@0.9.0",
      "0.9.0",
      false,
      "runner broke at start: handshake failed:\nImportError: cannot import name 'streamablehttp_client' | from mcp",
    ),
  ],
  results: [],
});

/** Given out of order on purpose; the pinned 0.21.0 is named "python". */
const reports = (): Report[] => [
  versionReport("0.21.0", "python"),
  versionReport("0.16.0"),
  unavailableReport(),
  versionReport("0.20.0"),
  versionReport("0.12.0"),
];

describe("history matrix", () => {
  const history = buildHistory(reports());

  it("orders the columns by version, taking the pinned one's from subject.version", () => {
    expect(history.columns.map((column) => column.label)).toEqual(["0.9.0", "0.12.0", "0.16.0", "0.20.0", "0.21.0"]);
    expect(history.columns.map((column) => column.subject.name)).toEqual([
      "python@0.9.0",
      "python@0.12.0",
      "python@0.16.0",
      "python@0.20.0",
      "python",
    ]);
    expect(subjectVersion({ name: "python@0.16.0", version: "(not installed)" })).toEqual({ runner: "python", version: "0.16.0" });
    expect(subjectVersion({ name: "python", version: "0.21.0" })).toEqual({ runner: "python", version: "0.21.0" });
  });

  it("names the release where a status changed: fixes, a regression, and a gap without a result", () => {
    const changes = Object.fromEntries(
      history.rows.map((row) => [row.scenario, row.changes.map((change) => `${describeChange(history, change)} [${change.kind}]`)]),
    );
    expect(changes["client.retry.after-zero"]).toEqual(["0.16.0: fail -> pass [fix]"]);
    expect(changes["client.run.no-toolkit"]).toEqual(["0.20.0: error -> pass [fix]"]);
    expect(changes["client.stream.order"]).toEqual(["0.21.0: pass -> fail [regression]"]);
    expect(changes["client.late.fix"]).toEqual(["0.20.0: fail -> pass (no result in 0.16.0) [fix]"]);
    // A baseline differing between versions is no change: mcp.allowlist.star fails everywhere.
    expect(changes["mcp.allowlist.star"]).toEqual([]);
    expect(changes["client.retry.after-seconds"]).toEqual([]);
  });

  it("names the release from which the runner no longer substitutes (a fix the statuses cannot show)", () => {
    const withNotes = reports().map((report) => {
      const version = report.subjects[0].name.split("@")[1];
      const needs = version === "0.12.0" || version === "0.16.0";
      return {
        ...report,
        results: report.results.map(({ notes: _notes, ...result }) =>
          needs ? { ...result, notes: [`passed an empty toolkit: ${version} requires one`] } : result,
        ),
      };
    });
    const changed = buildHistory(withNotes);
    expect(substitutionChanges(changed)).toEqual([
      { column: 3, before: withNotes[1].results.length, after: 0, example: "passed an empty toolkit: 0.16.0 requires one" },
    ]);
    expect(renderHistoryMarkdown(changed)).toContain(
      `Fixed in 0.20.0: the runner no longer substitutes anything (before it, ${withNotes[1].results.length} scenarios needed a substitution`,
    );
    expect(
      substitutionChanges(
        buildHistory(reports().map((report) => ({ ...report, results: report.results.map(({ notes: _notes, ...result }) => result) }))),
      ),
    ).toEqual([]);
  });

  it("puts changed rows first (by the release of their first change), then failing, baselined and passing ones", () => {
    expect(history.rows.map((row) => `${row.group} ${row.scenario}`)).toEqual([
      "changed client.retry.after-zero",
      "changed client.late.fix",
      "changed client.run.no-toolkit",
      "changed client.stream.order",
      "failing mcp.allowlist.star",
      "baselined mcp.allowlist.empty",
      "passing client.retry.after-seconds",
    ]);
  });

  it("totals each SPEC clause per version, changed clauses first, n/a for the unavailable version", () => {
    const retryAfter = history.clauses.find((clause) => clause.clause === "client.retry-after")!;
    expect(retryAfter.counts.map((counts) => counts && `${counts.pass}/${counts.fail + counts.error}`)).toEqual([
      undefined,
      "1/1",
      "2/0",
      "2/0",
      "2/0",
    ]);
    expect(history.columns[retryAfter.changedAt!].label).toBe("0.16.0");
    const allowlist = history.clauses.find((clause) => clause.clause === "mcp.allowlist")!;
    expect(allowlist.changedAt).toBeUndefined();
    expect(allowlist.counts.map((counts) => counts?.baselined)).toEqual([undefined, 1, 1, 1, 2]);
    expect(history.clauses.map((clause) => clause.clause)).toEqual([
      "client.retry-after",
      "client.late",
      "client.toolkit",
      "client.stream",
      "mcp.allowlist",
    ]);
  });

  it("renders Markdown: the versions with the unavailable one's reason, baselined cells apart, changed-in, clauses", () => {
    const markdown = renderHistoryMarkdown(history, { command: "npm run conformance -- history --runner python --versions 0.9.0..0.21.0" });
    expect(markdown).toContain("# History: python 0.9.0 to 0.21.0");
    expect(markdown).toContain("Produced by `npm run conformance -- history --runner python --versions 0.9.0..0.21.0`");
    expect(markdown).toContain("4 scenarios changed status: 3 fixes, 1 regression, 0 other changes.");
    // reasonDigest's first line, with the installer's error line; a | in it escaped for the table.
    expect(markdown).toContain(
      "| 0.9.0 | python@0.9.0 | toolnexus==0.9.0 | unavailable: runner broke at start: handshake failed: ImportError: cannot import name 'streamablehttp_client' \\| from mcp |",
    );
    expect(markdown).toContain("| 0.21.0 | python | toolnexus==0.21.0 | ran | 4 | 1 | 0 | 0 | 2 | 0 | 0 | 0.1 |");
    expect(markdown).toContain("| scenario | 0.9.0 | 0.12.0 | 0.16.0 | 0.20.0 | 0.21.0 | changed in |");
    expect(markdown).toContain("| `client.retry.after-zero` | n/a | FAIL | ok | ok | ok | 0.16.0: fail -> pass |");
    expect(markdown).toContain("| `client.stream.order` | n/a | ok | ok | ok | FAIL | 0.21.0: pass -> fail |");
    expect(markdown).toContain("| `client.late.fix` | n/a | FAIL | - | ok | ok | 0.20.0: fail -> pass (no result in 0.16.0) |");
    expect(markdown).toContain("| `mcp.allowlist.star` | n/a | FAIL | FAIL | FAIL | xfail |");
    expect(markdown).toContain("| `mcp.allowlist.empty` | n/a | xfail | xfail | xfail | xfail |");
    expect(markdown).toContain("| client.retry-after | n/a | 1 / 1 | 2 / 0 | 2 / 0 | 2 / 0 | 0.16.0 |");
    expect(markdown).toContain("- 0.20.0: passed an empty toolkit (1)");
    const headings = markdown.split("\n").filter((line) => line.startsWith("## "));
    expect(headings).toEqual([
      "## Versions",
      "## Changed across versions (4)",
      "## Same in every version: failing (not baselined everywhere) (1)",
      "## Same in every version: failing as each version's baseline expects (1)",
      "## Same in every version: passing or skipped (1)",
      "## Per SPEC clause",
    ]);
    // eslint-disable-next-line no-control-regex -- the whole ASCII range, control characters included
    expect(markdown).not.toMatch(/[^\x00-\x7f·]/); // plain ASCII labels (and the legend's dots)
  });

  it("renders one self-contained HTML page with the same cells, escaped", () => {
    const html = renderHistoryHtml(history);
    expect(html).not.toMatch(/<(script|link|img|iframe)\b|url\(|@import|https?:/i);
    expect(html).toContain("cannot import name &#39;streamablehttp_client&#39;");
    expect(html).toMatch(
      /<tr class="changed"><th scope="row"><code>client\.<wbr>retry\.<wbr>after-zero<\/code><\/th><td class="c na"[^>]*>n\/a<\/td><td class="c fail"[^>]*>FAIL<\/td><td class="c pass"[^>]*>ok<\/td>/,
    );
    expect(html).toContain("0.16.0: fail -&gt; pass");
    expect(html).toMatch(/<td class="c xfail"[^>]*>xfail<\/td>/);
  });

  it("says when a version's handshake names another version, and which releases the runner supports", () => {
    const wrong = versionReport("0.20.0");
    wrong.subjects[0] = { ...wrong.subjects[0], version: "0.21.0", supports: ">=0.9.0" };
    const markdown = renderHistoryMarkdown(buildHistory([versionReport("0.16.0"), wrong]));
    expect(markdown).toContain(
      "| 0.20.0 | python@0.20.0 | toolnexus==0.20.0 | ran (its handshake says version 0.21.0) (runner supports >=0.9.0) |",
    );
    expect(markdown).toContain("| 0.16.0 | python@0.16.0 | toolnexus==0.16.0 | ran |");
  });

  it("keeps several runners apart: labels by subject name, changes only within a runner", () => {
    const go = versionReport("0.12.0", "go@0.12.0");
    const mixed = buildHistory([versionReport("0.12.0"), versionReport("0.16.0"), go]);
    expect(mixed.columns.map((column) => column.label)).toEqual(["python@0.12.0", "python@0.16.0", "go@0.12.0"]);
    const row = mixed.rows.find((each) => each.scenario === "client.retry.after-zero")!;
    expect(row.changes.map((change) => describeChange(mixed, change))).toEqual(["python@0.16.0: fail -> pass"]);
  });

  it("refuses a version given twice, naming both files", () => {
    expect(() => buildHistory([versionReport("0.16.0"), versionReport("0.16.0")], ["a.json", "b.json"])).toThrow(
      /appears in both a\.json and b\.json/,
    );
  });
});

describe("merge", () => {
  it("takes one runner at different versions as different subjects", () => {
    const merged = mergeReports([versionReport("0.16.0"), versionReport("0.21.0")], ["python@0.16.0.json", "python@0.21.0.json"]);
    expect(merged.subjects.map((each) => each.name)).toEqual(["python@0.16.0", "python@0.21.0"]);
    expect(
      merged.results
        .filter((result) => result.scenario === "client.retry.after-zero")
        .map((result) => `${result.subject} ${result.status}`),
    ).toEqual(["python@0.16.0 pass", "python@0.21.0 pass"]);
    expect(validateReport(merged), JSON.stringify(validateReport.errors)).toBe(true);
  });
});

// ---------------------------------------------------------------------------------------------
// Versions: order, lists and ranges

describe("versions", () => {
  it("sorts semver-wise: numerically per part, a pre-release before its release", () => {
    expect(
      sortVersions([
        "0.21.0",
        "0.9.0",
        "1.0.0",
        "0.10.0",
        "0.18.1",
        "1.0.0-rc.2",
        "1.0.0-rc.10",
        "0.9.0rc1",
        "1.0.0.post1",
        "0.10.0",
        "0.2",
      ]),
    ).toEqual(["0.2", "0.9.0rc1", "0.9.0", "0.10.0", "0.18.1", "0.21.0", "1.0.0-rc.2", "1.0.0-rc.10", "1.0.0", "1.0.0.post1"]);
    expect(compareVersions("0.16.0", "source")).toBeLessThan(0);
  });

  it("parses a comma list (sorted, each once) and a range", () => {
    expect(parseVersionsOption("0.21.0, 0.9.0,0.10.0,0.9.0")).toEqual({ list: ["0.9.0", "0.10.0", "0.21.0"] });
    expect(parseVersionsOption("0.9.0..0.21.0")).toEqual({ from: "0.9.0", to: "0.21.0" });
    expect(versionsInRange(["0.21.0", "0.8.0", "0.9.0", "0.10.0", "0.22.0", "0.18.1"], "0.9.0", "0.21.0")).toEqual([
      "0.9.0",
      "0.10.0",
      "0.18.1",
      "0.21.0",
    ]);
  });

  it.each([
    ["0.21.0..0.9.0", "0.21.0 comes after 0.9.0"],
    ["0.9.0..0.16.0..0.21.0", "a range has exactly two ends"],
    ["0.9.0,0.10.0..0.21.0", "a range has exactly two ends"],
    ["0.9.0,,0.10.0", "an empty entry"],
    ["latest", '"latest" is no version'],
    ["python@0.9.0", '"python@0.9.0" is no version'],
  ])("refuses --versions %s", (text, why) => {
    expect(() => parseVersionsOption(text)).toThrow(UsageError);
    expect(() => parseVersionsOption(text)).toThrow(why);
  });

  it("resolves a range through the manifest's versions.list, and asks for a list without one", async () => {
    const manifest = (list?: string[]): RunnerManifest => ({
      name: "python",
      description: "d",
      language: "python",
      package: "toolnexus==0.21.0",
      start: ["true"],
      versions: { pinned: "0.21.0", install: ["true"], start: ["true"], ...(list ? { list: list as [string, ...string[]] } : {}) },
    });
    const calls: string[][] = [];
    const lister = async (_runner: string, command: string[]) => {
      calls.push(command);
      return sortVersions(["0.21.0", "0.20.0", "0.9.0", "0.8.0", "0.16.0", "0.10.0"]);
    };
    await expect(resolveVersions("python", manifest(["bash", "list.sh"]), { from: "0.9.0", to: "0.20.0" }, lister)).resolves.toEqual([
      "0.9.0",
      "0.10.0",
      "0.16.0",
      "0.20.0",
    ]);
    expect(calls).toEqual([["bash", "list.sh"]]);
    await expect(resolveVersions("python", manifest(), { list: ["0.9.0", "0.16.0"] }, lister)).resolves.toEqual(["0.9.0", "0.16.0"]);
    await expect(resolveVersions("python", manifest(), { from: "0.9.0", to: "0.21.0" }, lister)).rejects.toThrow(
      "has no versions.list to find the versions in 0.9.0..0.21.0: give them as a comma list, e.g. --versions 0.9.0,0.21.0",
    );
    await expect(resolveVersions("python", manifest(["x"]), { from: "1.0.0", to: "2.0.0" }, lister)).rejects.toThrow(
      "no version of python in 1.0.0..2.0.0; its versions.list names: 0.8.0, 0.9.0, 0.10.0, 0.16.0, 0.20.0, 0.21.0",
    );
  });
});

// ---------------------------------------------------------------------------------------------
// The command end to end (from reports only: no runner runs)

describe("conformance history (CLI)", () => {
  let dir: string;
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), "tnc-history-"));
  });
  afterAll(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  const cli = (...args: string[]) => runCli(["history", ...args]);

  async function writeReports(list: Report[]): Promise<string[]> {
    return Promise.all(
      list.map(async (report) => {
        const file = join(dir, `${report.subjects[0].name}.json`);
        await writeFile(file, JSON.stringify(report));
        return file;
      }),
    );
  }

  it("renders history.md and history.html from reports; exit 0 when every version ran", async () => {
    const files = await writeReports(reports().filter((report) => report.subjects[0].available));
    const out = join(dir, "all-ran");
    const { code, stdout, stderr } = await cli("--from-reports", ...files, "--out", out);
    expect(stderr).toBe("");
    expect(code).toBe(0);
    expect(stdout).toContain("history: 4 version(s), all ran; 4 scenario(s) changed status (3 fixes, 1 regressions, 0 other)");
    const markdown = await readFile(join(out, "history.md"), "utf8");
    expect(markdown).toContain("| `client.retry.after-zero` | FAIL | ok | ok | ok | 0.16.0: fail -> pass |");
    expect(markdown).toContain(
      "Produced by `npm run conformance -- history --from-reports python.json python@0.16.0.json python@0.20.0.json python@0.12.0.json --out",
    );
    expect(await readFile(join(out, "history.html"), "utf8")).toContain("<h1>History: python 0.12.0 to 0.21.0</h1>");
  });

  it("exit 1 when a version was unavailable, and the matrix says why", async () => {
    const files = await writeReports(reports());
    const out = join(dir, "one-unavailable");
    const { code, stdout } = await cli("--out", out, "--from-reports", ...files);
    expect(code).toBe(1);
    expect(stdout).toContain("history: 5 version(s), 1 unavailable (0.9.0)");
    expect(await readFile(join(out, "history.md"), "utf8")).toContain(
      "| 0.9.0 | python@0.9.0 | toolnexus==0.9.0 | unavailable: runner broke at start",
    );
  });

  it.each([
    [[], "history needs --runner NAME and --versions LIST|A..B, or --from-reports FILE..."],
    [["--runner", "python"], "history needs --runner NAME and --versions"],
    [["--runner", "pyton", "--versions", "0.9.0"], 'no runner "pyton"; did you mean python?'],
    [["--runner", "python@0.16.0", "--versions", "0.9.0"], "--runner python@0.16.0: name one runner"],
    [["--runner", "python", "--versions", "0.21.0..0.9.0"], "--versions 0.21.0..0.9.0: 0.21.0 comes after 0.9.0"],
    [["--runner", "ts", "--versions", "0.1.0"], "runners/ts/runner.json has no versions block"],
    [["--from-reports", "x.json", "--runner", "python"], "--from-reports runs nothing, so --runner would do nothing"],
    [["--from-reports", "/nonexistent/x.json"], "ENOENT"],
    [["--versionz", "0.9.0"], "unknown option '--versionz'; did you mean --versions?"],
  ])("usage error, exit 2: history %j", async (args, message) => {
    const { code, stderr } = await cli(...args);
    expect(code).toBe(2);
    expect(stderr).toContain(message);
  });
});
