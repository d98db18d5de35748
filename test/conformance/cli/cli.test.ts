// The CLI end to end, as a port's CI uses it: exit status, reports on disk, refusal on lint errors.
// Most cases call `main` in this process (runCli: the status it returns is the process's, since
// bin.mjs and main.ts's own entry pass it on); what only a real process shows runs the CLI as a child
// (runCliProcess): docs/using.md's exit-code table row by row, --help (commander writes it itself), SIGINT.
import { execFile } from "node:child_process";
import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { validateReport } from "../../../conformance/report/json-report.ts";
import { runnerNames } from "../../../conformance/subjects/runner-registry.ts";
import { runCli, runCliProcess, unknownToolScenario as scenario } from "../helpers.ts";

const exec = promisify(execFile);
const root = fileURLToPath(new URL("../../../", import.meta.url));
let dir: string;

const cli = (...args: string[]) => runCli(args, 60_000);

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), "tnc-cli-"));
  await writeFile(join(dir, "good.yaml"), scenario("good", "Unknown tool: nope"));
  await writeFile(join(dir, "bad.yaml"), scenario("bad", "Unknown tool: something else"));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe("conformance CLI", () => {
  it("exits 0 when everything passes", async () => {
    const { code, stdout } = await cli("run", join(dir, "good.yaml"));
    expect(code).toBe(0);
    expect(stdout).toMatch(/PASS\s+reference good/);
    expect(stdout.trim().split("\n").at(-1)).toBe("conformance: 1 passed, 0 failed, 0 errors, 0 skipped");
  });

  it("exits 1 on an unexpected failure, shows the diff, and writes reports that validate", async () => {
    const json = join(dir, "out/report.json");
    const junit = join(dir, "out/junit.xml");
    const { code, stdout } = await cli(
      "run",
      dir,
      "--json",
      json,
      "--junit",
      junit,
      "--matrix",
      join(dir, "out/m.md"),
      "--html",
      join(dir, "out/m.html"),
    );
    expect(code).toBe(1);
    expect(stdout).toContain('/value/output: expected "Unknown tool: something else", got "Unknown tool: nope"');
    const report = JSON.parse(await readFile(json, "utf8"));
    expect(validateReport(report), JSON.stringify(validateReport.errors)).toBe(true);
    expect(report.results.map((result: { scenario: string; status: string }) => `${result.scenario}:${result.status}`).sort()).toEqual([
      "bad:fail",
      "good:pass",
    ]);
    expect(await readFile(junit, "utf8")).toContain('failures="1"');
    expect(await readFile(join(dir, "out/m.md"), "utf8")).toContain("| `bad` | ❌ |");
  });

  it("refuses to run, exit 2, while lint finds problems, and says where", async () => {
    await writeFile(join(dir, "broken.yaml"), scenario("broken", "x").replace("toolkit.create", "toolkit.creat"));
    const { code, stderr } = await cli("run", join(dir, "broken.yaml"));
    expect(code).toBe(2);
    expect(stderr).toMatch(/broken\.yaml:5:9: unknown operation "toolkit\.creat"/);
    expect(stderr).toContain("refusing to run: lint found 1 problem(s)");
    await rm(join(dir, "broken.yaml"));
  });

  it("the package bin runs the same CLI", async () => {
    const { stdout } = await exec(process.execPath, [join(root, "conformance/cli/bin.mjs"), "list", join(dir, "good.yaml")], {
      cwd: root,
      timeout: 60_000,
    });
    expect(stdout).toMatch(/^good\tcore\.unknown-tool\t/);
  });

  it("an explicitly requested runner that cannot start fails the run, with the reason", async () => {
    const { code, stdout, stderr } = await cli("run", join(dir, "good.yaml"), "--runner-cmd", "exit 7");
    expect(code).toBe(1);
    expect(stdout).toMatch(/UNAVAILABLE custom: runner exited \(code 7\)/);
    expect(stderr).toContain("custom is unavailable");
  });

  it("runs the scenarios matching any of several --filter globs", async () => {
    const { code, stdout } = await cli("run", dir, "--filter", "good", "--filter", "b*");
    expect(code).toBe(1);
    expect(stdout).toMatch(/PASS\s+reference good/);
    expect(stdout).toMatch(/FAIL\s+reference bad/);
  });

  it("--skip leaves subjects out of --runner all (CI's conformance job skips what the vitest suite runs)", async () => {
    const others = runnerNames().filter((name) => name !== "ts");
    const skips = ["reference", ...others].flatMap((name) => ["--skip", name]);
    const { code, stdout } = await cli("run", join(dir, "good.yaml"), "--runner", "all", ...skips);
    expect(code, stdout).toBe(0);
    expect(stdout).toMatch(/^== ts: /m);
    expect(stdout).not.toMatch(/^== (?!ts:)/m);
    expect(stdout).not.toContain("UNAVAILABLE");
  });

  it("an empty shard (more shards than scenarios) is no error: exit 0, said so, empty reports written", async () => {
    const json = join(dir, "out/empty-shard.json");
    const { code, stdout } = await cli(
      "run",
      join(dir, "good.yaml"),
      "--shard",
      "2/3",
      "--json",
      json,
      "--junit",
      join(dir, "out/empty-shard.xml"),
      "--html",
      join(dir, "out/empty-shard.html"),
    );
    expect(code).toBe(0);
    expect(stdout).toContain("shard 2/3 is empty (1 scenario for 3 shards): nothing to run");
    const report = JSON.parse(await readFile(json, "utf8"));
    expect(validateReport(report), JSON.stringify(validateReport.errors)).toBe(true);
    expect(report).toMatchObject({ shard: { index: 2, count: 3 }, results: [] });
  });
});

describe("usage errors: exit 2, one line saying what is wrong, and where the usage is", () => {
  const runners = runnerNames().join(", ");
  it.each([
    { args: ["run", "--qqq"], message: "unknown option '--qqq'", command: "run" },
    { args: ["run", "--filtr", "x"], message: "unknown option '--filtr'; did you mean --filter?", command: "run" },
    { args: ["run", "--shard"], message: "option '--shard <i/n>' argument missing", command: "run" },
    {
      args: ["run", "--shard", "3/2"],
      message: "option '--shard <i/n>' argument '3/2' is invalid. expected i/n with 1 <= i <= n, e.g. 2/4",
      command: "run",
    },
    {
      args: ["run", "--subject", "nope"],
      message: "option '--subject <name>' argument 'nope' is invalid. Allowed choices are reference.",
      command: "run",
    },
    { args: ["list", "--tag"], message: "option '--tag <tag>' argument missing", command: "list" },
    { args: ["smoke"], message: "smoke needs exactly one of --runner NAME or --runner-cmd CMD", command: "smoke" },
    { args: ["merge", "--json", "merged.json"], message: "missing required argument 'reports'", command: "merge" },
    { args: ["rnu"], message: 'unknown command "rnu" (and no such file or folder); did you mean run?', command: undefined },
    {
      args: ["lsit", "--tag", "x"],
      message: 'unknown command "lsit" (and no such file or folder); did you mean list?',
      command: undefined,
    },
    { args: ["run", "--runner", "pyhton"], message: `no runner "pyhton"; did you mean python? (runners: ${runners})`, command: "run" },
    { args: ["smoke", "--runner", "jvaa"], message: `no runner "jvaa"; did you mean java? (runners: ${runners})`, command: "smoke" },
    { args: ["run", "--runner", "golang@source"], message: `no runner "golang" (runners: ${runners})`, command: "run" },
    {
      args: ["run", "--runner", "ts", "--skip", "ts"],
      message: "--skip leaves subjects out of --runner all; name the subjects to run instead",
      command: "run",
    },
    {
      args: ["run", "--runner", "all", "--skip", "tss"],
      message: `--skip tss: not a subject of this run (reference, ${runners})`,
      command: "run",
    },
  ])("$args", async ({ args, message, command }) => {
    const { code, stdout, stderr } = await cli(...args);
    expect(code).toBe(2);
    expect(stdout).toBe("");
    expect(stderr.split("\n")).toEqual([
      `conformance: ${message}`,
      `(see \`conformance${command ? ` ${command}` : ""} --help\` for the usage)`,
      "",
    ]);
  });

  it("--help still prints the help and exits 0", async () => {
    const { code, stdout } = await runCliProcess(["run", "--help"]); // commander writes its help to stdout itself
    expect(code).toBe(0);
    expect(stdout).toContain("Usage: conformance run [options] [paths...]");
  });
});

describe("docs/using.md's exit-code table, row by row", () => {
  // Commands per row, run concurrently (each is a process); the table's rows and these keys must agree.
  const examples: Record<string, () => string[][]> = {
    "0": () => [
      ["run", join(dir, "good.yaml")],
      ["run", join(dir, "good.yaml"), "--shard", "2/2"],
    ],
    "1": () => [
      ["run", dir],
      ["run", join(dir, "good.yaml"), "--runner-cmd", "exit 7"],
    ],
    "2": () => [
      ["run", "--bogus"],
      ["rnu"],
      ["run", join(dir, "missing.yaml")],
      ["run", join(dir, "good.yaml"), "--filter", "nothing.matches"],
    ],
  };

  it("has a row for each exit status the CLI uses, and no other", async () => {
    const readme = await readFile(join(root, "docs/using.md"), "utf8");
    const start = readme.indexOf("| exit status | means |");
    expect(start).toBeGreaterThan(0);
    const table = readme.slice(start, readme.indexOf("\n\n", start));
    expect([...table.matchAll(/^\| `(\d)` \|/gm)].map((match) => match[1])).toEqual(Object.keys(examples));
  });

  it.each(Object.keys(examples))("exit %s", async (status) => {
    const commands = examples[status]();
    const codes = await Promise.all(commands.map(async (args) => `${args.join(" ")}: ${(await runCliProcess(args)).code}`));
    expect(codes).toEqual(commands.map((args) => `${args.join(" ")}: ${status}`));
  });
});

describe("reliability: merge errors, start-up errors, interrupted runs", () => {
  const shard = (scenarioId: string) => ({
    version: 1,
    startedAt: "2026-11-29T10:00:00.000Z",
    finishedAt: "2026-11-29T10:01:00.000Z",
    subjects: [{ name: "reference", language: "typescript", package: "reference", version: "0", capabilities: [], available: true }],
    results: [
      {
        scenario: scenarioId,
        baseId: scenarioId,
        subject: "reference",
        status: "pass",
        outcome: "as-expected",
        durationMs: 1,
        message: "",
        spec: ["core.unknown-tool"],
        tags: [],
        file: "x.yaml",
      },
    ],
  });

  it("merge names the file that is cut short, and both files that hold the same result", async () => {
    const first = join(dir, "shard-1.json");
    const second = join(dir, "shard-2.json");
    const copy = join(dir, "shard-1-again.json");
    const cut = join(dir, "shard-cut.json");
    await writeFile(first, JSON.stringify(shard("t.one"), null, 2));
    await writeFile(second, JSON.stringify(shard("t.two"), null, 2));
    await writeFile(copy, JSON.stringify(shard("t.one"), null, 2));
    await writeFile(cut, JSON.stringify(shard("t.two"), null, 2).slice(0, 200));
    const truncated = await cli("merge", first, cut, "--json", join(dir, "out/merged.json"));
    expect(truncated.code).toBe(2);
    expect(truncated.stderr).toContain(`conformance: ${cut} is cut short (200 bytes, the JSON ends early)`);
    const duplicate = await cli("merge", first, second, copy, "--json", join(dir, "out/merged.json"));
    expect(duplicate.code).toBe(2);
    expect(duplicate.stderr).toContain(`conformance: scenario t.one on reference appears in both ${first} and ${copy}`);
  });

  it("a runner that fails at start-up: what it wrote to stderr reaches the console and the report", async () => {
    const json = join(dir, "out/startup.json");
    const { code, stdout } = await cli(
      "run",
      join(dir, "good.yaml"),
      "--runner-cmd",
      "echo 'ModuleNotFoundError: No module named toolnexus' >&2; exit 1",
      "--json",
      json,
    );
    expect(code).toBe(1);
    expect(stdout).toContain(
      "UNAVAILABLE custom: runner exited (code 1) before answering the handshake; its stderr ends with:\n  ModuleNotFoundError: No module named toolnexus",
    );
    const report = JSON.parse(await readFile(json, "utf8"));
    expect(report.subjects[0].unavailableReason).toContain("ModuleNotFoundError: No module named toolnexus");
  });

  it("--handshake-timeout shortens the wait for a silent --runner-cmd (default 60 s)", async () => {
    const started = performance.now();
    const { code, stdout } = await cli("run", join(dir, "good.yaml"), "--runner-cmd", "sleep 30", "--handshake-timeout", "300");
    expect(code).toBe(1);
    expect(stdout).toContain("did not answer the handshake within 300 ms");
    expect(performance.now() - started).toBeLessThan(25_000);
  });

  it("an interrupted run (SIGINT) removes its temporary folders and ends its runner before it dies", async () => {
    const { spawn } = await import("node:child_process");
    const { existsSync, readFileSync } = await import("node:fs");
    const { mkdir, readdir } = await import("node:fs/promises");
    const tmp = join(dir, "tmp");
    await mkdir(tmp, { recursive: true });
    const marker = join(dir, "runner-pid");
    await writeFile(
      join(dir, "hang.yaml"),
      "id: hang\ntitle: t\nspec: [core.tool-result]\ntimeoutMs: 30000\nsteps:\n  - op: runner.echo\n    with: {value: trigger}\n",
    );
    const fakeRunner = join(root, "test/conformance/fake-runner.mjs");
    // The runner hangs on the scenario and ignores the end of its stdin: only a kill ends it.
    const runnerCmd = `FAKE_RUNNER_MODE=hang FAKE_RUNNER_LINGER=1 FAKE_RUNNER_MARKER=${marker} exec ${process.execPath} ${fakeRunner}`;
    const child = spawn(
      process.execPath,
      ["--import", "tsx", join(root, "conformance/cli/main.ts"), "run", join(dir, "hang.yaml"), "--runner-cmd", runnerCmd],
      { cwd: root, env: { ...process.env, TMPDIR: tmp }, stdio: "ignore" },
    );
    const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
      child.once("exit", (code, signal) => resolve({ code, signal })),
    );
    const scenarioDirs = async () => (await readdir(tmp)).filter((name) => name.startsWith("tnc-"));
    // Running, and not a zombie (an orphan's exit may never be reaped where PID 1 does not reap).
    const alive = (pid: number) => {
      try {
        return !/^\d+ \(.*\) Z/.test(readFileSync(`/proc/${pid}/stat`, "utf8"));
      } catch {
        return false;
      }
    };
    let runnerPid: number | undefined;
    try {
      const deadline = Date.now() + 30_000;
      while (!(existsSync(marker) && (await scenarioDirs()).length) && Date.now() < deadline)
        await new Promise((resolve) => setTimeout(resolve, 100));
      expect((await scenarioDirs()).length, "the scenario's folder exists while it runs").toBe(1);
      runnerPid = Number(await readFile(marker, "utf8"));
      child.kill("SIGINT");
      const ended = await Promise.race([exited, new Promise<undefined>((resolve) => setTimeout(resolve, 15_000))]);
      expect(ended).toEqual({ code: null, signal: "SIGINT" });
      expect(await scenarioDirs()).toEqual([]);
      await new Promise((resolve) => setTimeout(resolve, 200));
      expect(alive(runnerPid)).toBe(false);
    } finally {
      child.kill("SIGKILL");
      if (runnerPid && alive(runnerPid)) process.kill(-runnerPid, "SIGKILL");
    }
  });
});
