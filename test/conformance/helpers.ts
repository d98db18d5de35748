// Test doubles for the engine's own tests: a scripted subject, a recording fixture kind, scenarios
// written inline as YAML, the CLI run as a child process, and the files a run wrote.
import { execFile } from "node:child_process";
import { readdir } from "node:fs/promises";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { vi } from "vitest";
import { toolnexusSuite } from "../../conformance/suite/toolnexus.ts";
import type { FixtureInstance, FixtureKind } from "../../conformance/scenario/fixture.ts";
import { expandScenario, type ExpandedScenario } from "../../conformance/scenario/expand.ts";
import { parseScenarioText, type LoadedScenario } from "../../conformance/scenario/load.ts";
import { validateScenarioSchema } from "../../conformance/scenario/validate.ts";
import type { OperationOutcome, Subject } from "../../conformance/subjects/subject.ts";

export function scenarioFromYaml(text: string, file = "inline.yaml"): LoadedScenario {
  const { scenario, diagnostics } = parseScenarioText(file, text);
  const problems = [...diagnostics, ...validateScenarioSchema(scenario)];
  if (problems.length) throw new Error(problems.map((problem) => `${problem.line}: ${problem.message}`).join("\n"));
  return scenario as LoadedScenario;
}

export function expandYaml(text: string): ExpandedScenario[] {
  return expandScenario(scenarioFromYaml(text), toolnexusSuite);
}

export interface FakeSubject extends Subject {
  calls: { op: string; input: Record<string, unknown> }[];
  resets: number;
}

/** A subject whose operations are answered by `answer`; it records every call. */
export function fakeSubject(
  answer: (op: string, input: Record<string, unknown>) => Promise<OperationOutcome> | OperationOutcome,
  capabilities: string[] = ["client.run", "client.stream", "style.openai", "style.anthropic"],
): FakeSubject {
  const subject: FakeSubject = {
    info: { name: "fake", language: "test", package: "fake", version: "0", capabilities },
    calls: [],
    resets: 0,
    async execute(op, input) {
      subject.calls.push({ op, input });
      return answer(op, input);
    },
    async reset() {
      subject.resets++;
    },
    async close() {},
  };
  return subject;
}

export const ok = (value: unknown): OperationOutcome => ({ ok: true, value, elapsedMs: 1 });

export interface RecordingFixture {
  kind: FixtureKind;
  started: number;
  stopped: number;
  actions: { action: string; input: unknown }[];
  snapshots: unknown[];
}

/** A fixture kind whose snapshot is the next of `snapshots` (the last one repeats). */
export function recordingFixture(snapshots: unknown[] = [{}], violations: string[] = []): RecordingFixture {
  const record: RecordingFixture = {
    started: 0,
    stopped: 0,
    actions: [],
    snapshots,
    kind: {
      kind: "recording",
      actions: ["poke"],
      varKeys: ["url"],
      optionsSchema: { type: "object", additionalProperties: false, properties: { flavour: { enum: ["plain", "fancy"] } } },
      checkAction: (_action, input) =>
        typeof input === "object" && input !== null && "bad" in input ? [{ path: ["bad"], message: "bad is not allowed" }] : [],
      async start(): Promise<FixtureInstance> {
        record.started++;
        let read = 0;
        return {
          vars: { url: "http://127.0.0.1:1/test" },
          async act(action, input) {
            record.actions.push({ action, input });
          },
          async snapshot() {
            return record.snapshots[Math.min(read++, record.snapshots.length - 1)];
          },
          async violations() {
            return violations;
          },
          async stop() {
            record.stopped++;
          },
        };
      },
    },
  };
  return record;
}

const repoRoot = fileURLToPath(new URL("../../", import.meta.url));

/** A one-file scenario executing an unknown tool and expecting `expected` as its output: "Unknown tool: nope" passes on the reference. */
export const unknownToolScenario = (id: string, expected: string) => `id: ${id}
title: t
spec: [core.unknown-tool]
steps:
  - op: toolkit.create
    with: {handle: tk}
  - op: toolkit.execute
    with: {toolkit: tk, name: nope}
    expect:
      - {at: /value/output, equals: "${expected}"}
`;

/**
 * `npm run conformance -- ARGS` in this process: `main`'s exit status and what it printed, with `env`
 * set for the call. The CLI's module graph loads once per test file instead of once per call (seconds
 * each on a busy machine); what only a real process shows (the exit status a shell sees, signals, a
 * child's inherited output) is tested with runCliProcess. Calls run one at a time, since console output
 * is the process's; the wait is bounded by timeoutMs (the call is then reported killed, code 99).
 */
export function runCli(args: string[], timeoutMs = 60_000, env: NodeJS.ProcessEnv = {}): Promise<CliOutcome> {
  const call = inProcessQueue.then(() => cliInProcess(args, timeoutMs, env));
  inProcessQueue = call.catch(() => undefined);
  return call;
}

export interface CliOutcome {
  code: number;
  stdout: string;
  stderr: string;
}

let inProcessQueue: Promise<unknown> = Promise.resolve();

async function cliInProcess(args: string[], timeoutMs: number, env: NodeJS.ProcessEnv): Promise<CliOutcome> {
  const { main } = await import("../../conformance/cli/main.ts");
  const [stdout, stderr]: string[][] = [[], []];
  const print =
    (into: string[]) =>
    (...parts: unknown[]) =>
      void into.push(`${parts.map(String).join(" ")}\n`);
  const spies = [
    vi.spyOn(console, "log").mockImplementation(print(stdout)),
    vi.spyOn(console, "info").mockImplementation(print(stdout)),
    vi.spyOn(console, "error").mockImplementation(print(stderr)),
    vi.spyOn(console, "warn").mockImplementation(print(stderr)),
  ];
  const callEnv: NodeJS.ProcessEnv = { NO_COLOR: "1", ...env };
  const saved = Object.fromEntries(Object.keys(callEnv).map((key) => [key, process.env[key]]));
  setEnv(callEnv);
  let timer: NodeJS.Timeout | undefined;
  try {
    const bound = new Promise<number>((resolve) => {
      timer = setTimeout(() => {
        stderr.push(`runCli: still running after ${timeoutMs} ms\n`);
        resolve(99);
      }, timeoutMs);
    });
    const code = await Promise.race([main(["node", "conformance", ...args]), bound]);
    return { code, stdout: stdout.join(""), stderr: stderr.join("") };
  } finally {
    clearTimeout(timer);
    setEnv(saved);
    for (const spy of spies) spy.mockRestore();
  }
}

function setEnv(values: NodeJS.ProcessEnv): void {
  for (const [key, value] of Object.entries(values)) {
    if (value === undefined) delete process.env[key];
    else process.env[key] = value;
  }
}

/** `npm run conformance -- ARGS` as a child process, from the repository root, bounded by timeoutMs. */
export async function runCliProcess(args: string[], timeoutMs = 60_000, env: NodeJS.ProcessEnv = {}): Promise<CliOutcome> {
  try {
    const { stdout, stderr } = await promisify(execFile)(
      process.execPath,
      ["--import", "tsx", join(repoRoot, "conformance/cli/main.ts"), ...args],
      {
        cwd: repoRoot,
        timeout: timeoutMs,
        env: { ...process.env, NO_COLOR: "1", ...env },
      },
    );
    return { code: 0, stdout, stderr };
  } catch (error) {
    const failed = error as { code: number | string | null; stdout: string; stderr: string };
    // Killed at the bound (code null) or not started (a string code): 99, never a success.
    return { code: typeof failed.code === "number" ? failed.code : 99, stdout: failed.stdout, stderr: failed.stderr };
  }
}

/** A one-file scenario that echoes `value` through runner.echo and expects it back (what a fake runner answers). */
export const echoScenario = (id: string, value: string) => `id: ${id}
title: t
spec: [core.tool-result]
steps:
  - op: runner.echo
    with: {value: ${value}}
    expect:
      - {at: /value/value, equals: ${value}}
`;

/** Every file under `dir`, recursively (absolute paths); a missing folder is an error. */
export async function filesUnder(dir: string): Promise<string[]> {
  const files: string[] = [];
  for (const entry of await readdir(dir, { withFileTypes: true })) {
    if (entry.isDirectory()) files.push(...(await filesUnder(join(dir, entry.name))));
    else files.push(join(dir, entry.name));
  }
  return files;
}
