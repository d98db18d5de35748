// The rust runner end to end: its install (a cargo build; a second install is the stamp's fast path),
// a smoke, a source build of the published crate unpacked from cargo's own download cache (the
// .crate file is the crate's source), another published release, and the release list from cargo.
// Builds share one cargo target folder (runners/rust/cargo-build.sh), so only a cold cache is slow.
import { execFile } from "node:child_process";
import { readdirSync, existsSync } from "node:fs";
import { mkdtemp, readFile, rm } from "node:fs/promises";
import { homedir, tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { obtainableHere } from "../obtainable.ts";

const exec = promisify(execFile);
const root = fileURLToPath(new URL("../../", import.meta.url));
const runnerDir = join(root, "runners/rust");
const buildTimeout = 15 * 60_000;

async function run(
  command: string,
  args: string[],
  env: NodeJS.ProcessEnv = {},
): Promise<{ code: number; output: string; stdout: string }> {
  try {
    const { stdout, stderr } = await exec(command, args, {
      cwd: root,
      timeout: buildTimeout,
      maxBuffer: 64 * 1024 * 1024,
      env: { ...process.env, ...env },
    });
    return { code: 0, output: stdout + stderr, stdout };
  } catch (error) {
    const failed = error as { code: number; stdout: string; stderr: string };
    return { code: failed.code, output: failed.stdout + failed.stderr, stdout: failed.stdout };
  }
}

const conformance = (...args: string[]) => run("npx", ["tsx", "conformance/cli/main.ts", ...args]);

/** The published crate as cargo downloaded it (CARGO_HOME/registry/cache/REGISTRY/toolnexus-V.crate). */
function crateFile(version: string): string | undefined {
  const cache = join(process.env.CARGO_HOME ?? join(homedir(), ".cargo"), "registry/cache");
  if (!existsSync(cache)) return undefined;
  for (const registry of readdirSync(cache)) {
    const file = join(cache, registry, `toolnexus-${version}.crate`);
    if (existsSync(file)) return file;
  }
  return undefined;
}

let dir: string;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), "tnc-rust-runner-test-"));
});

afterAll(async () => {
  if (dir) await rm(dir, { recursive: true, force: true });
});

// The crate comes from cargo's registry: where this machine cannot reach it (or has no cargo), each
// test skips with the decision's words (test/obtainable.ts), counted at the end of the run.
const rust = obtainableHere("rust");

describe("the rust runner", () => {
  it(
    "builds the pinned crate, and a second install is the fast path (no cargo build)",
    async ({ skip }) => {
      skip(!rust.here, rust.note);
      const first = await run("bash", [join(runnerDir, "install.sh")]);
      expect(first.code, first.output).toBe(0);
      const second = await run("bash", [join(runnerDir, "install.sh")]);
      expect(second.code, second.output).toBe(0);
      expect(second.output).toContain("rust runner already built in");
    },
    buildTimeout,
  );

  it(
    "passes the smoke test, handshaking with the crate's version from the build's lock file",
    async ({ skip }) => {
      skip(!rust.here, rust.note);
      const { code, output } = await conformance("smoke", "--runner", "rust");
      expect(code, output).toBe(0);
      expect(output).toContain("toolnexus 0.23.0 (rust)");
      expect(output).toContain("the runner is sound");
    },
    buildTimeout,
  );

  it(
    "builds the published crate unpacked as a checkout (path dependency), named rust@source with its content hash",
    async ({ skip }) => {
      skip(!rust.here, rust.note);
      const crate = crateFile("0.23.0");
      expect(crate, "the pinned install downloads toolnexus-0.23.0.crate into cargo's cache").toBeDefined();
      const checkout = join(dir, "checkout");
      await run("mkdir", ["-p", checkout]);
      const unpacked = await run("tar", ["-xzf", crate!, "-C", checkout]);
      expect(unpacked.code, unpacked.output).toBe(0);
      const source = join(checkout, "toolnexus-0.23.0");
      const report = join(dir, "source.json");
      // A passing scenario and a baselined divergence: the source baseline judges the source build.
      const { code, output } = await conformance(
        "run",
        "--runner",
        "rust",
        "--source",
        source,
        "--filter",
        "core/{unknown-tool,tool-result}",
        "--filter",
        "toolkit/order",
        "--json",
        report,
      );
      expect(code, output.slice(-4000)).toBe(0);
      expect(output).toContain("XFAIL rust@source toolkit/order");
      const json = JSON.parse(await readFile(report, "utf8"));
      expect(json.subjects[0]).toMatchObject({
        name: "rust@source",
        available: true,
        version: "0.23.0",
        build: { mode: "source", path: source },
      });
      const hash: string = json.subjects[0].build.contentHash;
      expect(hash).toMatch(/^sha256:[0-9a-f]{64}$/);
      // Built through the path dependency: the build's lock has the crate with no registry source.
      const lock = await readFile(join(runnerDir, ".build", `source-${hash.slice(7, 23)}`, "Cargo.lock"), "utf8");
      const entry = /\[\[package\]\]\nname = "toolnexus"\n([^[]*)/.exec(lock)?.[1];
      expect(entry, "toolnexus in the source build's Cargo.lock").toBeDefined();
      expect(entry).not.toContain("source = ");
      expect(json.results.filter((result: { status: string }) => result.status === "pass").length).toBe(2);
    },
    buildTimeout,
  );

  it(
    "builds another published release as rust@0.22.0",
    async ({ skip }) => {
      skip(!rust.here, rust.note);
      const { code, output } = await conformance("smoke", "--runner", "rust@0.22.0");
      expect(code, output).toBe(0);
      expect(output).toContain("toolnexus 0.22.0 (rust)");
    },
    buildTimeout,
  );

  it("lists the published releases through cargo, oldest first", async ({ skip }) => {
    skip(!rust.here, rust.note);
    const { code, output, stdout } = await run("bash", [join(runnerDir, "list-versions.sh")]);
    expect(code, output).toBe(0);
    const versions = stdout.trim().split("\n");
    expect(versions).toEqual(expect.arrayContaining(["0.22.0", "0.23.0"]));
    expect(versions.indexOf("0.22.0")).toBeLessThan(versions.indexOf("0.23.0"));
  }, 120_000);
});
