// The HTML matrix in a real headless Chromium (Debian's, installed by scripts/ensure-test-tools.sh):
// self-contained, a red cell's diff one click away, and readable there: no glyph the page's fonts
// lack (Debian's Chromium has no emoji font), no horizontal scroll at 1400 px, a failures-only filter.
import { existsSync } from "node:fs";
import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { chromium, type Browser, type Page } from "playwright-core";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { judge } from "../../../conformance/report/baseline.ts";
import { renderHtmlMatrix } from "../../../conformance/report/html.ts";
import type { Report } from "../../../conformance/schema/report.types.ts";

const chromiumPath = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";
// No browser where ensure-test-tools.sh could not install one (not root, no apt, offline): skip, saying
// why. A browser that is there but fails to start or finds a problem still fails the test.
const noBrowser = existsSync(chromiumPath)
  ? undefined
  : `no Chromium at ${chromiumPath}: scripts/ensure-test-tools.sh installs Debian's (needs root, apt-get and the network), or set CHROMIUM_PATH`;
let browser: Browser;
let dir: string;

beforeEach((context) => {
  if (noBrowser) context.skip(noBrowser);
});

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), "tnc-html-"));
  if (noBrowser) return;
  browser = await chromium.launch({
    executablePath: chromiumPath,
    timeout: 30_000,
    args: [
      "--no-sandbox",
      "--disable-gpu",
      "--disable-quic",
      "--no-first-run",
      "--disable-background-networking",
      "--disable-component-update",
      "--disable-sync",
    ],
  });
});

afterAll(async () => {
  await browser?.close();
  await rm(dir, { recursive: true, force: true });
});

const base = { title: "t", file: "fixtures/scenarios/x.yaml", durationMs: 5, spec: ["mcp.allowlist.empty"], tags: [] };
const report: Report = {
  version: 1,
  startedAt: "2026-11-29T10:00:00.000Z",
  finishedAt: "2026-11-29T10:01:00.000Z",
  subjects: [
    { name: "reference", language: "typescript", package: "ref", version: "0.1.0", capabilities: [], available: true },
    { name: "python", language: "python", package: "toolnexus", version: "0.21.0", capabilities: [], available: true },
    {
      name: "go",
      language: "go",
      package: "github.com/muthuishere/toolnexus/golang",
      version: "?",
      capabilities: [],
      available: false,
      unavailableReason: "go: 403 Forbidden <script>alert(1)</script>",
    },
  ],
  results: [
    judge(
      { ...base, scenario: "mcp/allowlist/empty", baseId: "mcp/allowlist/empty", subject: "reference", status: "pass", message: "" },
      new Map(),
    ),
    judge(
      {
        ...base,
        scenario: "mcp/allowlist/empty",
        baseId: "mcp/allowlist/empty",
        subject: "python",
        status: "fail",
        message: "x.yaml:12: step 1, result at /value/tools: the sets differ",
        failures: [
          {
            step: 1,
            check: "step 2 (toolkit.list) /value/tools",
            message: "x.yaml:12: step 1, result at /value/tools: the sets differ",
            diff: [{ path: "/value/tools", change: "unexpected", actual: "srv_a" }],
          },
        ],
      },
      new Map(),
    ),
  ],
};

describe("HTML compliance matrix", () => {
  it("loads with no outside request, and a click on a red cell shows its diff", async () => {
    const file = join(dir, "matrix.html");
    await writeFile(file, renderHtmlMatrix(report, "toolnexus"));
    const page = await browser.newPage();
    const requests: string[] = [];
    page.on("request", (request) => requests.push(request.url()));
    const dialogs: string[] = [];
    page.on("dialog", (dialog) => {
      dialogs.push(dialog.message());
      void dialog.dismiss();
    });
    await page.goto(pathToFileURL(file).href);
    expect(requests).toEqual([pathToFileURL(file).href]);

    const detail = page.locator("section.detail").first();
    await expect(detail.isVisible()).resolves.toBe(false);
    await page.locator("#matrix td.fail a").click();
    await expect(detail.isVisible()).resolves.toBe(true);
    await expect(detail.innerText()).resolves.toContain('/value/tools: unexpected "srv_a"');

    await expect(page.locator("text=unavailable").first().isVisible()).resolves.toBe(true);
    expect(dialogs).toEqual([]); // the unavailable reason was escaped, not executed
    await page.close();
  });
});

// A report shaped like a real all-runner run: 7 subjects with results, 2 unavailable with long
// installer logs, long expanded ids, and every kind of cell.
function realisticReport(): Report {
  const families = [
    "captured/rag-go",
    "client/body-transform",
    "client/faults",
    "client/request-params",
    "mcp/allowlist",
    "mcp/cancel",
    "toolkit/duplicates",
  ];
  const scenarios = families.flatMap((family) =>
    [1, 2, 3, 4].map((index) => `${family}/a-rather-long-scenario-name-number-${index}[anthropic-stream]`),
  );
  const available = ["reference", "python", "python@source", "go@source", "java@source", "js@source", "ts"];
  const installerLog = (runner: string) =>
    [
      "install exited with 1:",
      ...Array.from({ length: 40 }, (_, line) => `${runner} runner install: line ${line + 1} of a long installer log`),
      "[ERROR] Could not find artifact toolnexus:0.16.0",
    ].join("\n");
  // The cells that are not a plain pass, by scenario index (4 per family) and subject.
  const special = new Map<string, "fail" | "error" | "xfail" | "xerror" | "xpass" | "skip">([
    [`1\u0000python`, "fail"],
    [`6\u0000python@source`, "xfail"],
    [`6\u0000go@source`, "xfail"],
    [`9\u0000go@source`, "xerror"],
    [`13\u0000java@source`, "xpass"],
    [`17\u0000js@source`, "skip"],
    [`21\u0000ts`, "error"],
  ]);
  const results = scenarios.flatMap((scenario, index) =>
    available.map((subject) => {
      const kind = special.get(`${index}\u0000${subject}`);
      const status = kind === "xfail" ? "fail" : kind === "xerror" ? "error" : kind === "xpass" || !kind ? "pass" : kind;
      const baseline =
        kind === "xfail" || kind === "xerror" || kind === "xpass"
          ? new Map([
              [
                scenario,
                {
                  scenario,
                  status: kind === "xerror" ? ("error" as const) : ("fail" as const),
                  reason: "the port differs",
                  clause: "mcp.allowlist.empty",
                  classification: "port-differs" as const,
                },
              ],
            ])
          : new Map();
      const failed = status === "fail" || status === "error";
      return judge(
        {
          ...base,
          spec: [`${scenario.split("/").slice(0, 2).join(".")}.clause`],
          scenario,
          baseId: scenario.replace(/\[.*\]$/, ""),
          subject,
          status,
          message: failed
            ? `x.yaml:12: step 1 (op client.run), result at /value/tools: the sets differ`
            : status === "skip"
              ? "capability client.stream not declared"
              : "",
          ...(failed
            ? {
                failures: [
                  {
                    step: 1,
                    check: "step 2 (toolkit.list) /value/tools",
                    message: "x.yaml:12: the sets differ",
                    diff: [{ path: "/value/tools", change: "unexpected" as const, actual: "srv_a" }],
                  },
                ],
              }
            : {}),
        },
        baseline,
      );
    }),
  );
  return {
    version: 1,
    startedAt: "2026-11-29T10:00:00.000Z",
    finishedAt: "2026-11-29T10:05:00.000Z",
    subjects: [
      ...available.map((name) => ({
        name,
        language: name.split("@")[0],
        package: `github.com/example/toolnexus/${name.split("@")[0]}@v0.16.0`,
        version: "0.16.0",
        capabilities: [],
        available: true,
        build: name.endsWith("@source")
          ? { mode: "source" as const, path: "/home/dev/src/toolnexus", contentHash: `sha256:${"ab".repeat(32)}` }
          : { mode: "published" as const, package: `toolnexus@0.16.0` },
      })),
      ...["go", "java"].map((name) => ({
        name,
        language: name,
        package: `io.example.toolnexus:${name}:0.16.0`,
        version: "?",
        capabilities: [],
        available: false,
        unavailableReason: installerLog(name),
      })),
    ],
    results,
  };
}

// The characters whose glyph Chromium draws as the same box as a code point no font has: what a
// reader sees as an empty box.
async function charactersDrawnAsBoxes(page: Page, selector: string): Promise<string[]> {
  return page.evaluate((selector) => {
    const text = [...document.querySelectorAll<HTMLElement>(selector)].map((element) => element.innerText).join("");
    const canvas = document.createElement("canvas");
    canvas.width = canvas.height = 40;
    const context = canvas.getContext("2d")!;
    const draw = (character: string) => {
      context.clearRect(0, 0, 40, 40);
      context.font = `24px ${getComputedStyle(document.body).fontFamily}`;
      context.fillText(character, 4, 30);
      return context.getImageData(0, 0, 40, 40).data.join(",");
    };
    const box = draw("\u{10FFFD}"); // a private-use code point: no font on the machine has it
    return [...new Set(text)].filter((character) => character.codePointAt(0)! > 0x7e && !/\s/.test(character) && draw(character) === box);
  }, selector);
}

describe("HTML compliance matrix, as a port maintainer reads it", () => {
  const screenshots = () => process.env.HTML_MATRIX_SCREENSHOTS ?? dir; // set it to keep the PNGs and look at them

  async function open(width: number): Promise<Page> {
    const file = join(dir, "realistic.html");
    await writeFile(file, renderHtmlMatrix(realisticReport(), "toolnexus"));
    const page = await browser.newPage({ viewport: { width, height: 900 } });
    page.setDefaultTimeout(10_000);
    const requests: string[] = [];
    page.on("request", (request) => requests.push(request.url()));
    await page.goto(pathToFileURL(file).href);
    expect(requests).toEqual([pathToFileURL(file).href]);
    return page;
  }

  const horizontalOverflow = (page: Page) =>
    page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);

  it("fits 1400 px and 900 px without horizontal scroll, with installer logs collapsed", async () => {
    await mkdir(screenshots(), { recursive: true });
    for (const width of [1400, 900]) {
      const page = await open(width);
      await page.screenshot({ path: join(screenshots(), `matrix-${width}.png`) });
      await page.screenshot({ path: join(screenshots(), `matrix-${width}-full.png`), fullPage: true });
      await expect(horizontalOverflow(page)).resolves.toBe(0);
      // The installer log is one click away, not on the first screen.
      const log = page.locator("#subjects details").first();
      await expect(log.locator("pre").isVisible()).resolves.toBe(false);
      await log.locator("summary").click();
      await expect(log.locator("pre").isVisible()).resolves.toBe(true);
      await page.close();
    }
  });

  it("draws every status as ASCII text, legend included, and no character as an empty box", async () => {
    const page = await open(1400);
    const statusTexts = await page.locator("#matrix td, #by-family td, #by-clause td, .legend .status").allInnerTexts();
    expect(statusTexts.length).toBeGreaterThan(7 * 28);
    expect(statusTexts.filter((text) => !/^[\x20-\x7E]*$/.test(text.replace(/\n/g, " ")))).toEqual([]);
    await expect(charactersDrawnAsBoxes(page, "body")).resolves.toEqual([]);
    // Colour is a second cue: each cell also says what it is, for a screen reader and a hover.
    const labels = await page.locator("#matrix td").evaluateAll((cells) => cells.map((cell) => cell.getAttribute("aria-label") ?? ""));
    expect(
      labels.filter(
        (label) =>
          !/^\S+: (pass|new failure|new error|failure the baseline expects|error the baseline expects|passed though the baseline lists it|skipped|no result)/.test(
            label,
          ),
      ),
    ).toEqual([]);
    await page.close();
  });

  it("tells new failures from baselined ones, and summarises by scenario family and SPEC clause per subject", async () => {
    const page = await open(1400);
    const row = (id: string) => page.locator(`#matrix tr`, { has: page.locator(`th code`, { hasText: id }) });
    const cells = (id: string) => row(id).locator("td").allInnerTexts();
    // Subjects with results are the columns, in report order: reference, python, python@source, go@source, java@source, js@source, ts.
    // A star marks the odd one out: the only subject that differs from all the others.
    await expect(cells("captured/rag-go/a-rather-long-scenario-name-number-2[")).resolves.toEqual([
      "ok",
      "FAIL*",
      "ok",
      "ok",
      "ok",
      "ok",
      "ok",
    ]);
    await expect(cells("client/body-transform/a-rather-long-scenario-name-number-3[")).resolves.toEqual([
      "ok",
      "ok",
      "xfail",
      "xfail",
      "ok",
      "ok",
      "ok",
    ]);
    await expect(cells("client/faults/a-rather-long-scenario-name-number-2[")).resolves.toEqual([
      "ok",
      "ok",
      "ok",
      "xerr*",
      "ok",
      "ok",
      "ok",
    ]);
    await expect(cells("client/request-params/a-rather-long-scenario-name-number-2[")).resolves.toEqual([
      "ok",
      "ok",
      "ok",
      "ok",
      "XPASS",
      "ok",
      "ok",
    ]);
    await expect(cells("mcp/allowlist/a-rather-long-scenario-name-number-2[")).resolves.toEqual([
      "ok",
      "ok",
      "ok",
      "ok",
      "ok",
      "skip",
      "ok",
    ]);
    await expect(cells("mcp/cancel/a-rather-long-scenario-name-number-2[")).resolves.toEqual(["ok", "ok", "ok", "ok", "ok", "ok", "ERR*"]);
    const familyRow = (family: string) =>
      page.locator("#by-family tr", { has: page.locator("th", { hasText: new RegExp(`^${family}$`) }) });
    await expect(familyRow("captured/rag-go").locator("td").nth(1).innerText()).resolves.toMatch(/^3\/4\s+1 new$/);
    await expect(familyRow("client/body-transform").locator("td").nth(2).innerText()).resolves.toMatch(/^3\/4\s+1 xfail$/);
    await expect(familyRow("toolkit/duplicates").locator("td").nth(0).innerText()).resolves.toBe("4/4");
    await expect(
      page.locator("#by-clause tr", { hasText: "client.body-transform.clause" }).locator("td").nth(3).innerText(),
    ).resolves.toMatch(/^3\/4\s+1 xfail$/);
    // The legend names both kinds apart.
    await expect(page.locator(".legend").innerText()).resolves.toMatch(/FAIL\s+new failure[\s\S]*xfail\s+failure the baseline expects/);
    await page.close();
  });

  it("hides passing rows behind a failures-only filter, keeps column headers in view, and a red cell's diff one click away", async () => {
    const page = await open(1400);
    const visibleRows = () =>
      page
        .locator("#matrix tbody tr:not(.family)")
        .evaluateAll((rows) => rows.filter((row) => (row as HTMLElement).offsetParent !== null).length);
    await expect(visibleRows()).resolves.toBe(28);
    await page.locator("#failures-only").check();
    await expect(visibleRows()).resolves.toBe(5); // FAIL, xfail (one row, two subjects), xerr, XPASS, ERR: the skip row hides too
    await expect(
      page.locator("#by-family tbody tr").evaluateAll((rows) => rows.filter((row) => (row as HTMLElement).offsetParent !== null).length),
    ).resolves.toBe(5);
    await page.locator("#new-only").check();
    await expect(visibleRows()).resolves.toBe(3); // FAIL, XPASS and ERR: the baselined rows hide
    await page.screenshot({ path: join(screenshots(), "matrix-1400-failures-only.png"), fullPage: true });
    await page.locator("#new-only").uncheck();
    await page.locator("#failures-only").uncheck();
    await expect(visibleRows()).resolves.toBe(28);

    // Scrolled to the matrix's last row, its column headers are still on screen.
    await page.locator("#matrix tbody tr").last().scrollIntoViewIfNeeded();
    await page.evaluate(() => window.scrollBy(0, 200));
    const header = await page.locator("#matrix thead th").nth(1).boundingBox();
    expect(header!.y).toBeGreaterThanOrEqual(0);
    expect(header!.y).toBeLessThan(80);

    await page.locator("#matrix td.fail a").click();
    await expect(page.locator("section.detail:target").innerText()).resolves.toContain('/value/tools: unexpected "srv_a"');
    await page.close();
  });

  it("shows only the odd-one-out rows behind their filter, the lone cell marked in text", async () => {
    const page = await open(1400);
    const visible = (selector: string) =>
      page.locator(selector).evaluateAll((elements) => elements.filter((element) => (element as HTMLElement).offsetParent !== null).length);
    await expect(
      page
        .locator("label", { has: page.locator("#odd-only") })
        .innerText()
        .then((text) => text.trim()),
    ).resolves.toBe("odd one out (3)");
    await page.locator("#odd-only").check();
    // One subject alone differs: python's FAIL, go@source's xerr, ts's ERR. Not the row where two
    // subjects fail alike, nor java@source's XPASS (it passed, as the others did), nor js@source's skip.
    await expect(visible("#matrix tbody tr:not(.family)")).resolves.toBe(3);
    await expect(page.locator("#matrix tbody tr.odd td.odd").allInnerTexts()).resolves.toEqual(["FAIL*", "xerr*", "ERR*"]);
    await expect(visible("#matrix tbody tr.family")).resolves.toBe(3);
    await expect(visible(".summary")).resolves.toBe(0);
    const label = await page.locator("#matrix td.odd").first().getAttribute("aria-label");
    expect(label).toBe("python: new failure, the odd one out (the only subject that differs from all the others)");
    await page.screenshot({ path: join(screenshots(), "matrix-1400-odd-one-out.png"), fullPage: true });
    await page.locator("#odd-only").uncheck();
    await expect(visible("#matrix tbody tr:not(.family)")).resolves.toBe(28);
    await page.close();
  });

  it("with two subjects the odd-one-out filter is off and says why", async () => {
    const file = join(dir, "two.html");
    await writeFile(file, renderHtmlMatrix(report, "toolnexus"));
    const page = await browser.newPage();
    await page.goto(pathToFileURL(file).href);
    await expect(page.locator("#odd-only").isDisabled()).resolves.toBe(true);
    await expect(page.locator("label", { has: page.locator("#odd-only") }).getAttribute("title")).resolves.toMatch(
      /needs at least 3 subjects that ran .*this report has 2$/,
    );
    await expect(page.locator("#matrix td.odd").count()).resolves.toBe(0);
    await page.close();
  });
});
