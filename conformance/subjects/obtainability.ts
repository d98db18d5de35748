// What this machine can obtain for each runner, decided once and read by everything that requires a
// port (npm test's steps, through the file TNC_OBTAINABLE names): each runner's toolchain (runner.json
// `requires`, on PATH, with its version) and the answer of its package client to the runner's probe
// (runner.json `probe`). Only a client's own answer decides: a client that could not reach its
// registry at all makes the port not obtainable here; a registry that answers and refuses the
// package is still a port to obtain, whose install then fails exactly as it would without a probe;
// a probe that hangs is bounded and leaves the port undecided. No registry is named here: the
// runners' probes ask their clients, configured as the machine configures them.
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { join } from "node:path";
import { runnersDir } from "../common/paths.ts";
import { runBounded } from "../common/run-bounded.ts";
import { compileSchema } from "../../runners/protocol/json-schema.ts";
import type { Obtainability, PortAnswer, RunnerObtainability, Toolchain } from "../schema/obtainability.types.ts";
import { installerWords, onPath, readManifest, runnerNames } from "./runner-registry.ts";

const require = createRequire(import.meta.url);
const validateObtainability = compileSchema<Obtainability>(require("../schema/obtainability.schema.json"));

/** The environment variable naming the decision file every step of npm test reads. */
export const obtainabilityEnvironmentVariable = "TNC_OBTAINABLE";

const defaultProbeTimeoutMs = 60_000;
const versionTimeoutMs = 15_000;
const wordsKept = 4_000;

export interface DecideOptions {
  /** Runner names (default: every folder under `dir` with a runner.json). */
  names?: string[];
  /** The runners' folder (default: runners/). */
  dir?: string;
  /** Added to the probes' environment (tests point a client at a loopback index this way); PATH is this process's. */
  env?: Record<string, string>;
}

/** The tool on PATH and the first line it prints of its version (`--version`, else `version`, as go has it). */
async function toolchain(tool: string, cwd: string, env: Record<string, string>): Promise<Toolchain> {
  if (!onPath(tool)) return { tool, found: false };
  for (const flag of ["--version", "version"]) {
    const run = await runBounded([tool, flag], { cwd, env, timeoutMs: versionTimeoutMs });
    const line = installerWords(run.stdout.trim() || run.stderr.trim())
      .split("\n")[0]
      ?.trim();
    if (run.code === 0 && line) return { tool, found: true, version: line };
  }
  return { tool, found: true };
}

async function askPort(probe: string[] | undefined, timeoutMs: number, cwd: string, env: Record<string, string>): Promise<PortAnswer> {
  if (!probe) return { answer: "not-asked" };
  const started = performance.now();
  const run = await runBounded(probe, { cwd, env, timeoutMs });
  const elapsedMs = Math.round(performance.now() - started);
  const words = installerWords(run.startError?.message ?? run.output).slice(-wordsKept);
  if (run.timedOut) return { answer: "hung", words: `${words}\n(no answer within ${timeoutMs} ms)`.trim(), elapsedMs };
  const answer = run.code === 0 ? "served" : run.code === 3 ? "unreachable" : "refused";
  return { answer, words, elapsedMs };
}

async function decideRunner(name: string, dir: string, env: Record<string, string>): Promise<RunnerObtainability> {
  const manifest = await readManifest(name, dir);
  const cwd = join(dir, name);
  const toolchains = await Promise.all((manifest.requires ?? []).map((tool) => toolchain(tool, cwd, env)));
  const port: PortAnswer = toolchains.every((tool) => tool.found)
    ? await askPort(manifest.probe, manifest.probeTimeoutMs ?? defaultProbeTimeoutMs, cwd, env)
    : { answer: "no-toolchain" };
  return { name, package: manifest.package, toolchains, port };
}

/** Asks every runner's toolchain and probe, side by side (the probes mostly wait on the network). */
export async function decideObtainability(options: DecideOptions = {}): Promise<Obtainability> {
  const dir = options.dir ?? runnersDir;
  const names = options.names ?? runnerNames(dir);
  const decidedAt = new Date().toISOString();
  const runners = await Promise.all(names.map((name) => decideRunner(name, dir, options.env ?? {})));
  return { decidedAt, runners };
}

/** A decision file as written by `conformance obtainable --json`; a bad one is named with what is wrong. */
export function readObtainability(file: string): Obtainability {
  let data: unknown;
  try {
    data = JSON.parse(readFileSync(file, "utf8"));
  } catch (error) {
    throw new Error(`${file}: not a readable JSON decision (${error instanceof Error ? error.message : String(error)})`);
  }
  if (!validateObtainability(data))
    throw new Error(
      `${file}: not an obtainability decision (conformance/schema/obtainability.schema.json): ${validateObtainability.errors
        ?.map((error) => `${error.instancePath || "(top)"} ${error.message}`)
        .join("; ")}`,
    );
  return data;
}

/** Whether a subject (NAME, NAME@source, NAME@VERSION) can be had here: yes, no (excused) or undecided (a client hung). */
export interface SubjectVerdict {
  subject: string;
  here: "yes" | "no" | "undecided";
  /** Why, in one line: the missing tools or the client's telling line. */
  why: string;
}

/** The last non-empty line of a client's words: the probe prints its telling line last. */
function tellingLine(words: string | undefined): string {
  return (words ?? "").trim().split("\n").at(-1)?.trim() ?? "";
}

export function verdictFor(decision: Obtainability, subject: string): SubjectVerdict {
  const [name, qualifier] = subject.split("@");
  const runner = decision.runners.find((candidate) => candidate.name === name);
  if (!runner) return { subject, here: "no", why: `no runner "${name}" was asked (runners/${name}/runner.json)` };
  const missing = runner.toolchains.filter((tool) => !tool.found).map((tool) => tool.tool);
  if (missing.length) return { subject, here: "no", why: `${missing.join(", ")} not on PATH` };
  const { answer, words } = runner.port;
  if (answer === "unreachable")
    return { subject, here: "no", why: `its package client could not reach its registry: ${tellingLine(words)}` };
  if (answer === "hung") return { subject, here: "undecided", why: `its package client did not answer: ${tellingLine(words)}` };
  if (answer === "refused" && qualifier !== "source")
    return { subject, here: "yes", why: `its registry answered and refused ${runner.package}: ${tellingLine(words)}` };
  if (answer === "not-asked") return { subject, here: "yes", why: "no probe: its install decides" };
  return { subject, here: "yes", why: answer === "refused" ? "its registry answers (built from source)" : `${runner.package} served` };
}

/** The subjects of a list sorted by their verdicts: to be had here, excused, undecided (a client hung). */
export function splitVerdicts(
  decision: Obtainability,
  subjects: string[],
): { here: SubjectVerdict[]; excused: SubjectVerdict[]; undecided: SubjectVerdict[] } {
  const verdicts = subjects.map((subject) => verdictFor(decision, subject));
  return {
    here: verdicts.filter((verdict) => verdict.here === "yes"),
    excused: verdicts.filter((verdict) => verdict.here === "no"),
    undecided: verdicts.filter((verdict) => verdict.here === "undecided"),
  };
}
