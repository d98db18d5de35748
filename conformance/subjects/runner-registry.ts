// The runners under runners/: read a manifest, install the pinned port package (or build the port
// from a source checkout), start the runner. A runner that cannot be installed, built or started
// here is unavailable, with the installer's own words.
import { existsSync, mkdirSync, readdirSync } from "node:fs";
import { readFile } from "node:fs/promises";
import { createRequire } from "node:module";
import { delimiter, join } from "node:path";
import { runnersDir } from "../common/paths.ts";
import { describeSchemaError, schemaErrorLine, schemaErrorPath } from "../common/schema-error.ts";
import { parseYamlWithPositions } from "../common/yaml-positions.ts";
import { isVersionLabel } from "../common/versions.ts";
import { compileSchema } from "../../runners/protocol/json-schema.ts";
import { runBounded } from "../common/run-bounded.ts";
import { expandCommand, hashPortFolder, resolvePortFolder } from "./port-source.ts";
import type { RunnerManifest } from "../../runners/protocol/runner-manifest.types.ts";
import type { Build } from "../schema/report.types.ts";
import { packageAt, pinned, subjectName, type RunnerOrigin } from "./runner-identity.ts";
import { RunnerUnavailableError, startRunnerSubject, type RunnerSubject } from "./runner.ts";

const require = createRequire(import.meta.url);
const validateManifest = compileSchema<RunnerManifest>(require("../../runners/protocol/runner-manifest.schema.json"));

const defaultInstallTimeoutMs = 15 * 60_000;
const installOutputTail = 4_000;

export function runnerNames(dir = runnersDir): string[] {
  return readdirSync(dir, { withFileTypes: true })
    .filter((entry) => entry.isDirectory() && existsSync(join(dir, entry.name, "runner.json")))
    .map((entry) => entry.name)
    .sort();
}

export async function readManifest(name: string, dir = runnersDir): Promise<RunnerManifest> {
  const path = join(dir, name, "runner.json");
  if (!existsSync(path)) throw new Error(`no runner "${name}": expected ${path}; runners here: ${runnerNames(dir).join(", ")}`);
  // JSON is YAML: read with positions, so a problem names its line. And JSON it must stay (what YAML
  // alone allows, a trailing comma or a comment, other readers of the file refuse).
  const text = await readFile(path, "utf8");
  const json = parseYamlWithPositions(text);
  const syntaxError = json.firstError(path);
  if (syntaxError) throw new Error(syntaxError);
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch (error) {
    throw new Error(`${path}: not JSON: ${(error as Error).message}`);
  }
  if (!validateManifest(data)) {
    const problem = validateManifest.errors![0];
    const { path: where, key } = schemaErrorPath(problem);
    const line = key ? json.keyLineAt(where) : json.lineAt(where);
    throw new Error(
      `${path}:${line}: invalid runner manifest at ${problem.instancePath || "(top)"}: ${schemaErrorLine(describeSchemaError(problem))} (schema: runners/protocol/runner-manifest.schema.json)`,
    );
  }
  return data;
}

/** The executable is in a folder of PATH. */
export function onPath(executable: string): boolean {
  return (process.env.PATH ?? "").split(delimiter).some((dir) => dir && existsSync(join(dir, executable)));
}

/**
 * The installer's own words for a report: without terminal colours, with every URL replaced by <url>,
 * the host a client failed to resolve or named as host='...' by <host>, and the NuGet sources it
 * searched by <source>, so no package registry's address ends up in a report, a log or a document
 * quoting one.
 */
export function installerWords(output: string): string {
  return (
    output
      // eslint-disable-next-line no-control-regex -- terminal colour codes are what it strips
      .replace(/\x1b\[[0-9;]*[A-Za-z]/g, "")
      .replace(/\b[a-z][a-z0-9+.-]*:\/\/[^\s'"<>()\]]*[^\s'"<>()\].,:;]/gi, "<url>")
      .replace(/((?:resolve host(?:name)?:?|Unknown host) +)[a-z0-9.-]*[a-z0-9]/gi, "$1<host>")
      .replace(/(in source\(s\): )[^\s,]+/g, "$1<source>")
      .replace(/(host=')[^']*'/gi, "$1<host>'")
      .trim()
  );
}

interface LaunchPlan {
  install?: string[];
  installTimeoutMs?: number;
  start: string[];
  handshakeTimeoutMs?: number;
  env: Record<string, string>;
  build: Build;
}

/** The build folder of one version of the published package: a venv or build per version, reused when present. */
function versionPlan(name: string, manifest: RunnerManifest, version: string): LaunchPlan {
  const recipe = manifest.versions;
  if (!recipe)
    throw new RunnerUnavailableError(`runners/${name}/runner.json has no versions recipe: this runner installs only ${manifest.package}`);
  if (!isVersionLabel(version)) throw new RunnerUnavailableError(`"${version}" is not a version (expected e.g. ${recipe.pinned})`);
  const buildDir = join(runnersDir, name, ".build", `published-${version}`);
  mkdirSync(buildDir, { recursive: true });
  const tokens = { version, build: buildDir };
  return {
    install: expandCommand(recipe.install, tokens),
    installTimeoutMs: recipe.installTimeoutMs ?? manifest.installTimeoutMs,
    start: expandCommand(recipe.start, tokens),
    handshakeTimeoutMs: recipe.handshakeTimeoutMs ?? manifest.handshakeTimeoutMs,
    env: { TNC_PACKAGE_VERSION: version, TNC_BUILD_DIR: buildDir },
    build: { mode: "published", package: packageAt(manifest, version) },
  };
}

/** What to run for the pinned package, another version of it, or a build of the port's folder in a source checkout. */
async function launchPlan(name: string, manifest: RunnerManifest, origin: RunnerOrigin): Promise<LaunchPlan> {
  if (origin.kind === "pinned")
    return {
      install: manifest.install,
      installTimeoutMs: manifest.installTimeoutMs,
      start: manifest.start,
      handshakeTimeoutMs: manifest.handshakeTimeoutMs,
      env: {},
      build: { mode: "published", package: manifest.package },
    };
  if (origin.kind === "version") return versionPlan(name, manifest, origin.version);
  const source = origin.source;
  if (!manifest.source)
    throw new RunnerUnavailableError(`runners/${name}/runner.json has no source recipe: this runner drives only the published package`);
  let folder: string;
  try {
    folder = resolvePortFolder(source.dir, manifest.source.subdir);
  } catch (error) {
    throw new RunnerUnavailableError(error instanceof Error ? error.message : String(error));
  }
  const contentHash = await hashPortFolder(folder);
  // One build folder per source content: switching sources (or modes) never runs a stale build.
  const buildDir = join(runnersDir, name, ".build", `source-${contentHash.slice("sha256:".length, "sha256:".length + 16)}`);
  mkdirSync(buildDir, { recursive: true });
  const paths = { source: folder, build: buildDir };
  return {
    install: expandCommand(manifest.source.install, paths),
    installTimeoutMs: manifest.source.installTimeoutMs ?? manifest.installTimeoutMs,
    start: expandCommand(manifest.source.start, paths),
    handshakeTimeoutMs: manifest.source.handshakeTimeoutMs ?? manifest.handshakeTimeoutMs,
    env: { TNC_PORT_SOURCE: folder, TNC_BUILD_DIR: buildDir },
    build: { mode: "source", path: folder, contentHash, ...(source.commit ? { commit: source.commit } : {}) },
  };
}

/** Install or build (when the manifest says how) and start a runner. Throws RunnerUnavailableError with the reason. */
export async function openRunner(
  name: string,
  log: (line: string) => void = () => undefined,
  origin: RunnerOrigin = pinned,
): Promise<RunnerSubject> {
  const manifest = await readManifest(name);
  const cwd = join(runnersDir, name);
  const missing = (manifest.requires ?? []).filter((executable) => !onPath(executable));
  if (missing.length)
    throw new RunnerUnavailableError(
      `${missing.join(", ")} not found on PATH (this runner needs ${missing.join(", ")}; see runners/${name}/README.md)`,
    );
  const plan = await launchPlan(name, manifest, origin);
  if (plan.install) {
    const what = plan.build.mode === "source" ? `building ${name} from ${plan.build.path}` : `installing ${name}`;
    log(`${what}: ${plan.install.join(" ")}`);
    const timeoutMs = plan.installTimeoutMs ?? defaultInstallTimeoutMs;
    const installed = await runBounded(plan.install, { cwd, timeoutMs, env: plan.env });
    if (installed.code !== 0) {
      const why = installed.timedOut ? `install did not finish within ${timeoutMs} ms` : `install exited with ${installed.code}`;
      const output = installerWords(installed.startError?.message ?? installed.output);
      throw new RunnerUnavailableError(`${why}:\n${output.slice(-installOutputTail)}`);
    }
  }
  const subject = await startRunnerSubject({
    name: subjectName(name, origin),
    command: plan.start,
    cwd,
    env: plan.env,
    handshakeTimeoutMs: plan.handshakeTimeoutMs,
  });
  subject.info.build = plan.build;
  return subject;
}
