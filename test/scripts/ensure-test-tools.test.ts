// scripts/ensure-test-tools.sh (npm's pretest) and the browser test it serves: a 350 MB install is
// announced before it starts, and where the browser cannot be had (not root, no apt, offline) npm
// test goes on and the browser test skips, saying why. Stubs stand in for id, apt-get and sleep.
import { execFile } from "node:child_process";
import { existsSync } from "node:fs";
import { chmod, mkdir, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

const root = fileURLToPath(new URL("../../", import.meta.url));
const bash = ["/bin/bash", "/usr/bin/bash"].find((path) => existsSync(path))!;
let dir: string;

function run(command: string, args: string[], env: Record<string, string>): Promise<{ code: number; output: string }> {
  return new Promise((resolve) => {
    execFile(command, args, { cwd: root, env, timeout: 120_000 }, (error, stdout, stderr) => {
      resolve({ code: error ? Number((error as { code?: number }).code ?? 1) : 0, output: stdout + stderr });
    });
  });
}

/** A folder of stub commands, the only thing on PATH: `id -u` prints uid; apt-get (when given) logs and exits aptStatus. */
async function stubs(name: string, options: { uid: number; aptStatus?: number }): Promise<{ path: string; aptLog: string }> {
  const path = join(dir, name);
  const aptLog = join(path, "apt.log");
  const scripts: Record<string, string> = {
    id: `echo ${options.uid}`,
    sleep: "exit 0",
    timeout: 'shift; exec "$@"',
    ...(options.aptStatus === undefined ? {} : { "apt-get": `echo "apt-get $*" >> ${aptLog}; exit ${options.aptStatus}` }),
  };
  await mkdir(path, { recursive: true });
  for (const [command, body] of Object.entries(scripts)) {
    await writeFile(join(path, command), `#!${bash}\n${body}\n`);
    await chmod(join(path, command), 0o755);
  }
  return { path, aptLog };
}

const ensure = (env: Record<string, string>) =>
  run(bash, [join(root, "scripts/ensure-test-tools.sh")], { CHROMIUM_PATH: join(dir, "no-such-chromium"), ...env });

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), "tnc-ensure-"));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe("scripts/ensure-test-tools.sh", () => {
  it("does nothing when the browser is there", async () => {
    const browser = join(dir, "chromium");
    await writeFile(browser, "#!/bin/sh\n");
    await chmod(browser, 0o755);
    const { path } = await stubs("present", { uid: 0, aptStatus: 0 });
    await expect(ensure({ PATH: path, CHROMIUM_PATH: browser })).resolves.toEqual({ code: 0, output: "" });
  });

  it("says what it downloads before apt starts, and offline lets npm test go on without the browser test", async () => {
    const { path, aptLog } = await stubs("offline", { uid: 0, aptStatus: 100 });
    const { code, output } = await ensure({ PATH: path });
    expect(code).toBe(0);
    const announcement = output.indexOf("about 350 MB");
    expect(announcement, output).toBeGreaterThanOrEqual(0);
    expect(announcement).toBeLessThan(output.indexOf("attempt 1"));
    expect(output).toContain("TNC_SKIP_BROWSER_INSTALL=1");
    expect(output).toMatch(/could not install chromium after 3 attempts .*: the HTML matrix browser test will be skipped/);
    expect((await readFile(aptLog, "utf8")).split("\n").filter(Boolean).length).toBe(3);
  });

  it.each([
    { name: "not-root", uid: 1000, aptStatus: 0, reason: "not root" },
    { name: "no-apt", uid: 0, aptStatus: undefined, reason: "no apt-get" },
  ])("cannot install ($reason): says why, exit 0", async ({ name, uid, aptStatus, reason }) => {
    const { path } = await stubs(name, { uid, aptStatus });
    const { code, output } = await ensure({ PATH: path });
    expect(code).toBe(0);
    expect(output).toContain(`cannot install Debian's chromium here (${reason}): the HTML matrix browser test will be skipped`);
  });

  it("TNC_SKIP_BROWSER_INSTALL=1 installs nothing", async () => {
    const { path, aptLog } = await stubs("opted-out", { uid: 0, aptStatus: 0 });
    const { code, output } = await ensure({ PATH: path, TNC_SKIP_BROWSER_INSTALL: "1" });
    expect(code).toBe(0);
    expect(output).toContain("TNC_SKIP_BROWSER_INSTALL=1: not installing chromium: the HTML matrix browser test will be skipped");
    expect(existsSync(aptLog)).toBe(false);
  });
});

describe("the HTML matrix browser test without a browser", () => {
  it("skips, with the reason, instead of failing", async () => {
    // This vitest's own variables would make the inner one think it is a worker.
    const env = Object.fromEntries(
      Object.entries(process.env).filter(([name]) => !name.startsWith("VITEST") && name !== "TEST" && name !== "NODE_ENV"),
    ) as Record<string, string>;
    const { code, output } = await run(
      process.execPath,
      [join(root, "node_modules/vitest/vitest.mjs"), "run", "test/conformance/report/html-matrix.test.ts", "--reporter=verbose"],
      {
        ...env,
        NO_COLOR: "1",
        CHROMIUM_PATH: join(dir, "no-such-chromium"),
      },
    );
    expect(code, output).toBe(0);
    expect(output).toMatch(/Tests\s+(\d+) skipped/);
    expect(output).toContain(`no Chromium at ${join(dir, "no-such-chromium")}`);
  });
});
