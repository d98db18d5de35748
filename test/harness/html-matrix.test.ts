// The HTML matrix in a real headless Chromium (Debian's, installed by scripts/ensure-test-tools.sh):
// self-contained, and a red cell's diff is one click away.
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { chromium, type Browser } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { judge } from "../../conformance/report/baseline.ts";
import { renderHtmlMatrix } from "../../conformance/report/html.ts";
import type { Report } from "../../conformance/schema/report.types.ts";

const chromiumPath = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";
let browser: Browser;
let dir: string;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), "tnc-html-"));
  browser = await chromium.launch({
    executablePath: chromiumPath,
    timeout: 30_000,
    args: ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking", "--disable-component-update", "--disable-sync"],
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
    { name: "go", language: "go", package: "github.com/muthuishere/toolnexus/golang", version: "?", capabilities: [], available: false, unavailableReason: "go: 403 Forbidden <script>alert(1)</script>" },
  ],
  results: [
    judge({ ...base, scenario: "mcp.allowlist.empty-loads-none", baseId: "mcp.allowlist.empty-loads-none", subject: "reference", status: "pass", message: "" }, new Map()),
    judge(
      {
        ...base,
        scenario: "mcp.allowlist.empty-loads-none",
        baseId: "mcp.allowlist.empty-loads-none",
        subject: "python",
        status: "fail",
        message: "x.yaml:12: step 1, result at /value/tools: the sets differ",
        failures: [{ step: 1, message: "x.yaml:12: step 1, result at /value/tools: the sets differ", diff: [{ path: "/value/tools", change: "unexpected", actual: "srv_a" }] }],
      },
      new Map(),
    ),
  ],
};

describe("HTML compliance matrix", () => {
  it("loads with no outside request, and a click on a red cell shows its diff", async () => {
    const file = join(dir, "matrix.html");
    await writeFile(file, renderHtmlMatrix(report));
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
    await expect(detail.innerText()).resolves.toContain("/value/tools: unexpected \"srv_a\"");

    await expect(page.locator("text=unavailable").first().isVisible()).resolves.toBe(true);
    expect(dialogs).toEqual([]); // the unavailable reason was escaped, not executed
    await page.close();
  });
});
