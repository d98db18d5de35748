// The subprocess runner subject against runners that crash, hang, write garbage or refuse the
// handshake: each costs only the scenario in flight, is said plainly, and leaves no process behind.
import { readFile, mkdtemp, rm, writeFile } from "node:fs/promises";
import { existsSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterEach, describe, expect, it } from "vitest";
import { runScenario } from "../../../conformance/engine/run.ts";
import { toolnexusSuite } from "../../../conformance/suite/toolnexus.ts";
import { RunnerUnavailableError, shellCommand, startRunnerSubject, type RunnerSubject } from "../../../conformance/subjects/runner.ts";
import { protocolVersion } from "../../../runners/protocol/protocol.ts";
import { SubjectBrokenError } from "../../../conformance/subjects/subject.ts";
import { expandYaml } from "../helpers.ts";

const fakeRunner = fileURLToPath(new URL("../fake-runner.mjs", import.meta.url));
/** The suite's fixture kinds, as the CLI runs with. */
const suiteFixtures = { fixtureKinds: toolnexusSuite.fixtureKinds };
const opened: RunnerSubject[] = [];

async function start(mode: string, handshakeTimeoutMs = 5_000, env: Record<string, string> = {}): Promise<RunnerSubject> {
  const subject = await startRunnerSubject({
    name: "fake",
    command: [process.execPath, fakeRunner],
    env: { FAKE_RUNNER_MODE: mode, ...env },
    handshakeTimeoutMs,
    restartBudget: 2,
  });
  opened.push(subject);
  return subject;
}

function alive(pid: number | undefined): boolean {
  if (pid === undefined) return false;
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

const scratchDirs: string[] = [];
/** A folder for one test, removed after it (npm test must leave nothing in the temp folder). */
async function scratchDir(): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), "tnc-runner-"));
  scratchDirs.push(dir);
  return dir;
}

afterEach(async () => {
  await Promise.all(opened.splice(0).map((subject) => subject.close()));
  await Promise.all(scratchDirs.splice(0).map((dir) => rm(dir, { recursive: true, force: true })));
});

const echo = (value: string, timeoutMs = 300) =>
  expandYaml(
    `id: t.echo\ntitle: t\nspec: [core.tool-result]\ntimeoutMs: ${timeoutMs}\nsteps:\n  - op: runner.echo\n    with: {value: ${value}}\n    expect: [{at: /value/value, equals: ${value}}]\n`,
  )[0];

describe("runner subject", () => {
  it("handshakes, reports the implementation, and answers operations", async () => {
    const subject = await start("good");
    expect(subject.info).toEqual({
      name: "fake",
      language: "js",
      package: "fake",
      version: "1.0.0",
      capabilities: ["toolkit.extra-tools"],
    });
    expect((await runScenario(echo("hello"), subject, suiteFixtures)).status).toBe("pass");
  });

  for (const [mode, message] of [
    ["crash", /runner exited \(code 3\)/],
    ["garbage", /not JSON: "Traceback/],
    ["hang", /did not answer runner\.echo \(seq \d+\) within 1300 ms: killed/],
    ["wrong-seq", /answered seq \d+ while seq \d+ was asked/],
  ] as const) {
    it(`a runner that goes wrong (${mode}) costs only the scenario in flight, then is restarted`, async () => {
      const subject = await start(mode);
      const firstPid = subject.pid;
      const broken = await runScenario(echo("trigger"), subject, suiteFixtures);
      expect(broken.status).toBe("error");
      expect(broken.message).toMatch(message);
      await new Promise((resolve) => setTimeout(resolve, 50));
      expect(alive(firstPid)).toBe(false);
      const next = await runScenario(echo("after"), subject, suiteFixtures);
      expect(next.status).toBe("pass");
      expect(subject.restarts).toBe(1);
      expect(subject.pid).not.toBe(firstPid);
    });
  }

  it("attaches what the runner wrote to stderr to the failure", async () => {
    const subject = await start("stderr-then-crash");
    const result = await runScenario(echo("trigger"), subject, suiteFixtures);
    expect(result.status).toBe("error");
    expect(result.stderr).toContain("panic: runtime error: index out of range");
  });

  it("stops restarting once the budget is used up", async () => {
    const subject = await start("crash");
    for (let i = 0; i < 3; i++) expect((await runScenario(echo("trigger"), subject, suiteFixtures)).status).toBe("error");
    const exhausted = await runScenario(echo("after"), subject, suiteFixtures);
    expect(exhausted.message).toContain("restart budget (2) used up");
  });

  it("hangs now and then never use up the budget: each costs only its own scenario", async () => {
    const subject = await start("hang");
    // Budget 2, five hangs: the answers in between show the runner works, so none of the later scenarios is lost.
    for (let round = 0; round < 5; round++) {
      expect((await runScenario(echo("trigger", 150), subject, suiteFixtures)).status).toBe("error");
      expect((await runScenario(echo("after", 150), subject, suiteFixtures)).status).toBe("pass");
    }
    expect(subject.restarts).toBe(5);
  });

  it("an unsupported answer to a declared operation is a failure that says so", async () => {
    const subject = await start("good");
    const [scenario] = expandYaml(`id: t.u\ntitle: t\nspec: [core.tool-result]\nsteps:\n  - op: toolkit.create\n    with: {handle: tk}\n`);
    const result = await runScenario(scenario, subject, suiteFixtures);
    expect(result.status).toBe("fail");
    expect(result.message).toContain("runner says toolkit.create is unsupported: fake runner has no toolkit.create");
  });

  it("a result whose value does not fit the op's output schema is the runner's error, naming the op, the pointer and what was expected", async () => {
    const subject = await start("bad-value");
    const result = await runScenario(echo("trigger"), subject, suiteFixtures);
    expect(result.status).toBe("error");
    expect(result.message).toBe(
      'runner answered runner.echo with a value that does not fit runners/protocol/outputs.schema.json (a runner bug): at (top level): missing key "value"',
    );
    // The runner itself is sound: it goes on answering, without a restart.
    expect((await runScenario(echo("after"), subject, suiteFixtures)).status).toBe("pass");
    expect(subject.restarts).toBe(0);
  });

  it("a restart whose handshake fails is closed, never talked to, and counts against the budget", async () => {
    const marker = join(await scratchDir(), "started");
    const subject = await start("crash", 5_000, { FAKE_RUNNER_MARKER: marker, FAKE_RUNNER_LATER_MODE: "unavailable" });
    expect((await runScenario(echo("trigger"), subject, suiteFixtures)).status).toBe("error");
    const second = await runScenario(echo("after"), subject, suiteFixtures);
    expect(second.status).toBe("error");
    expect(second.message).toContain("pip: No matching distribution found");
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(alive(subject.pid)).toBe(false);
    expect(subject.restarts).toBe(1);
  });

  it("smoke says so when a runner does not exit on end of input", async () => {
    const { smoke } = await import("../../../conformance/cli/smoke.ts");
    const lines: string[] = [];
    const log = console.log;
    console.log = (line: string) => lines.push(line);
    try {
      const sound = await smoke({ runnerCommand: `FAKE_RUNNER_MODE=linger ${process.execPath} ${fakeRunner}` });
      expect(sound).toBe(false);
    } finally {
      console.log = log;
    }
    expect(lines.some((line) => line.startsWith("✗ exits when its stdin closes: still running"))).toBe(true);
  });

  it("handshake problems are plain: unavailable (with the installer's words), wrong protocol, silence", async () => {
    await expect(start("unavailable")).rejects.toThrow(
      new RunnerUnavailableError("pip: No matching distribution found for toolnexus==9.9.9"),
    );
    await expect(start("old-protocol")).rejects.toThrow(
      `runner refused protocol ${protocolVersion}: this runner speaks protocol 1 (it speaks protocol 1: update it as runners/PROTOCOL.md#versions says)`,
    );
    await expect(start("old-answers")).rejects.toThrow(
      `runner speaks protocol 1, the harness ${protocolVersion}: update it as runners/PROTOCOL.md#versions says`,
    );
    const silent = start("silent", 300);
    await expect(silent).rejects.toBeInstanceOf(SubjectBrokenError);
    await expect(silent).rejects.toThrow(/did not answer the handshake within 300 ms/);
  });
});

describe("a runner that floods stdout without a newline", () => {
  it("is killed as soon as the line limit is passed, with the limit said, not after buffering it all or waiting out the handshake", async () => {
    const marker = join(await scratchDir(), "started");
    const started = performance.now();
    const flooding = start("flood", 30_000, { FAKE_RUNNER_MARKER: marker });
    await expect(flooding).rejects.toBeInstanceOf(SubjectBrokenError);
    await expect(flooding).rejects.toThrow(/runner wrote more than 32 MiB to stdout without a newline: killed/);
    // Well under the 30 s handshake wait (a generous bound for a loaded machine, not a timing target).
    expect(performance.now() - started).toBeLessThan(15_000);
    const pid = Number(await readFile(marker, "utf8"));
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(alive(pid)).toBe(false);
  });

  it("the line splitter holds at most the limit of an unfinished line, and reports the overflow once", async () => {
    const { BoundedLineSplitter } = await import("../../../conformance/subjects/json-lines.ts");
    const lines: string[] = [];
    const overflows: number[] = [];
    const splitter = new BoundedLineSplitter(
      4 * 1024,
      (line) => lines.push(line),
      (limit) => overflows.push(limit),
    );
    splitter.push(Buffer.from('{"a":1}\r\n{"b":'));
    splitter.push(Buffer.from('"é"}\n'));
    // A multi-byte character split across chunks still decodes.
    const snowman = Buffer.from("☃\n");
    splitter.push(snowman.subarray(0, 1));
    splitter.push(snowman.subarray(1));
    expect(lines).toEqual(['{"a":1}', '{"b":"é"}', "☃"]);
    for (let i = 0; i < 10; i++) {
      splitter.push(Buffer.alloc(1024, "x"));
      expect(splitter.heldBytes).toBeLessThanOrEqual(4 * 1024);
    }
    expect(overflows).toEqual([4 * 1024]);
    expect(splitter.heldBytes).toBe(0);
    splitter.push(Buffer.from("late\n"));
    expect(lines).toHaveLength(3);
  });
});

describe("a runner that fails at start-up", () => {
  it("says what it wrote to stderr (an import error), not only its exit code", async () => {
    const failing = start("import-error");
    await expect(failing).rejects.toBeInstanceOf(SubjectBrokenError);
    await expect(failing).rejects.toThrow(
      /^runner exited \(code 1\) before answering the handshake; its stderr ends with:\n[\s\S]*\n {2}ModuleNotFoundError: No module named toolnexus$/,
    );
  });

  it("says 'command not found' for a missing executable, started directly or through a shell", async () => {
    await expect(startRunnerSubject({ name: "fake", command: ["tnc-no-such-executable"], handshakeTimeoutMs: 5_000 })).rejects.toThrow(
      /could not start tnc-no-such-executable: command not found/,
    );
    const viaShell = startRunnerSubject({
      name: "fake",
      command: shellCommand("tnc-no-such-executable --serve"),
      handshakeTimeoutMs: 5_000,
    });
    await expect(viaShell).rejects.toThrow(/runner exited \(code 127: command not found\)/);
    await expect(viaShell).rejects.toThrow(/tnc-no-such-executable: command not found/);
  });
});

describe("--runner-cmd's shell", () => {
  // Node's stdio pipes are sockets: bash -c with a socket on stdin and SHLVL below 1 takes itself to
  // be run by rshd and sources ~/.bashrc (where pyenv's rehash lock held a runner up for 60 s).
  it("reads no ~/.bashrc, whatever SHLVL says; plain bash -c would", async () => {
    const home = await mkdtemp(join(tmpdir(), "tnc-home-"));
    try {
      const marker = join(home, "bashrc-ran");
      await writeFile(join(home, ".bashrc"), `touch ${JSON.stringify(marker)}\n`);
      const env = { HOME: home, SHLVL: "0" };
      const startWith = (command: string[]) => startRunnerSubject({ name: "custom", command, env, handshakeTimeoutMs: 5_000 });
      await expect(startWith(["bash", "-c", "exit 7"])).rejects.toThrow(/runner exited \(code 7/);
      expect(existsSync(marker), "the planted ~/.bashrc must run under plain bash -c, or this test proves nothing").toBe(true);
      await rm(marker);
      await expect(startWith(shellCommand("exit 7"))).rejects.toThrow(/runner exited \(code 7/);
      expect(existsSync(marker)).toBe(false);
    } finally {
      await rm(home, { recursive: true, force: true });
    }
  });
});

describe("a real runner killed mid-scenario", () => {
  it("costs only the scenario in flight: the ts runner is restarted and the next scenario passes", async () => {
    const { openRunner } = await import("../../../conformance/subjects/runner-registry.ts");
    const subject = await openRunner("ts");
    opened.push(subject);
    const slow = expandYaml(`id: t.slow
title: t
spec: [client.body.openai]
fixtures: {llm: {kind: llm-mock}}
steps:
  - fixture: llm
    action: script
    with: [{text: late, delayMs: 3000}]
  - op: client.create
    with: {handle: c, style: openai, baseUrl: "\${llm.baseUrl}", model: m}
  - op: client.run
    with: {client: c, prompt: hi}
`)[0];
    const victim = subject.pid!;
    const killer = setTimeout(() => process.kill(-victim, "SIGKILL"), 500);
    const killed = await runScenario(slow, subject, suiteFixtures);
    clearTimeout(killer);
    expect(killed.status).toBe("error");
    expect(killed.message).toMatch(/runner exited \(signal SIGKILL\)/);
    // The restart (a new tsx process and its handshake) happens inside this step: allow it time on a loaded machine.
    const after = await runScenario(echo("after", 15_000), subject, suiteFixtures);
    expect(after.status, after.message).toBe("pass");
    expect(subject.pid).not.toBe(victim);
  });
});

describe("an installer's words in a report", () => {
  it("keep the error, lose colours and every URL (no registry address reaches a report)", async () => {
    const { installerWords } = await import("../../../conformance/subjects/runner-registry.ts");
    const raw =
      "\x1b[31mgo: reading https://proxy.example.test/github.com/x/@v/v0.16.0.zip: 403 Forbidden\x1b[0m\n[ERROR] Could not find artifact a:b:1 in central (https://repo.example.test/maven2).";
    expect(installerWords(raw)).toBe("go: reading <url>: 403 Forbidden\n[ERROR] Could not find artifact a:b:1 in central (<url>).");
  });

  it("lose the host a client could not resolve, named as host='...', or the NuGet source it searched", async () => {
    const { installerWords } = await import("../../../conformance/subjects/runner-registry.ts");
    expect(installerWords("[6] Could not resolve hostname (Could not resolve host: index.example.test)")).toBe(
      "[6] Could not resolve hostname (Could not resolve host: <host>)",
    );
    expect(installerWords("HTTPSConnectionPool(host='files.example.test', port=443): Max retries exceeded")).toBe(
      "HTTPSConnectionPool(host='<host>', port=443): Max retries exceeded",
    );
    expect(installerWords("[ERROR] Unknown host repo.example.test: Name or service not known")).toBe(
      "[ERROR] Unknown host <host>: Name or service not known",
    );
    expect(
      installerWords("error NU1101: Unable to find package Toolnexus. No packages exist with this id in source(s): feed.example.test"),
    ).toBe("error NU1101: Unable to find package Toolnexus. No packages exist with this id in source(s): <source>");
  });
});
