// npm run conformance:mcp: the official MCP conformance suite's client scenarios against the reference's
// MCP loader (external/mcp-conformance/client.ts), judged by that folder's baseline.yaml. Installs the
// folder's pinned package when missing, runs each scenario in its own process group under an outer
// timeout (the group killed on expiry: the suite waits for its client's output to close, so a client
// that ignores the suite's SIGTERM would hang it), on loopback only (in a network namespace of its own where
// `unshare -n` works), and exits 0 when nothing is unexpected, 1 when something is, 2 on bad usage or
// a bad baseline. Lives outside the package folder so its imports resolve to the root's pinned packages.
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync } from "node:fs";
import { createRequire } from "node:module";
import { join, relative } from "node:path";
import { fileURLToPath } from "node:url";
import { Command, InvalidArgumentError } from "commander";
import { runBounded as runBoundedCommand } from "../../conformance/common/run-bounded.ts";
import { BaselineError, judge, loadBaseline, type ScenarioRun } from "./baseline.ts";

const root = fileURLToPath(new URL("../..", import.meta.url));
/** The package folder: the pinned suite, its lock, the client under test and the baseline. */
const packageDir = join(root, "external/mcp-conformance");
const suiteCli = join(packageDir, "node_modules/@modelcontextprotocol/conformance/dist/index.js");
const pinned: string = JSON.parse(readFileSync(join(packageDir, "package.json"), "utf8")).dependencies["@modelcontextprotocol/conformance"];

interface Finished {
  code: number | null;
  output: string;
  timedOut: boolean;
}

/** Run a command in its own process group; on timeout the whole group is killed, and after exit (a client the suite left behind dies with it). Never hangs. */
async function runBounded(command: string, args: string[], options: { cwd: string; timeoutMs: number; echo?: boolean }): Promise<Finished> {
  const echo = options.echo ? { onOutput: (chunk: Buffer) => process.stderr.write(chunk) } : {};
  // All of the output: a scenario's verdict lines may come anywhere in it.
  const run = await runBoundedCommand([command, ...args], {
    cwd: options.cwd,
    timeoutMs: options.timeoutMs,
    tails: { output: Infinity },
    killGroupAfterExit: true,
    ...echo,
  });
  return { code: run.code, output: run.startError ? `${run.output}\n${run.startError.message}` : run.output, timedOut: run.timedOut };
}

async function ensureInstalled(): Promise<void> {
  const installed = join(packageDir, "node_modules/@modelcontextprotocol/conformance/package.json");
  if (existsSync(installed) && JSON.parse(readFileSync(installed, "utf8")).version === pinned) return;
  console.error(
    `mcp-conformance: installing @modelcontextprotocol/conformance ${pinned} into ${relative(root, packageDir)}/node_modules (npm ci)`,
  );
  const npm = await runBounded("npm", ["ci", "--no-audit", "--no-fund"], { cwd: packageDir, timeoutMs: 300_000, echo: true });
  if (npm.code !== 0)
    throw new Error(`npm ci in ${relative(root, packageDir)} ${npm.timedOut ? "timed out after 300 s" : `exited with ${npm.code}`}`);
}

/** The wrapper that gives a command a network namespace with only loopback, where this machine allows it. */
async function isolation(): Promise<{ wrap: (argv: string[]) => [string, string[]]; note: string }> {
  const enter = ["-n", "sh", "-c", 'ip link set lo up && exec "$0" "$@"'];
  const probe = await runBounded("unshare", [...enter, "true"], { cwd: packageDir, timeoutMs: 5_000 });
  if (probe.code === 0)
    return { wrap: ([command, ...args]) => ["unshare", [...enter, command, ...args]], note: "own network namespace, loopback only" };
  const why = probe.output.trim().split("\n")[0] || `exit ${probe.code}`;
  return {
    wrap: ([command, ...args]) => [command, args],
    note: `shared network (unshare -n unavailable: ${why}); the client connects to loopback URLs only`,
  };
}

function findFile(dir: string, name: string): string | undefined {
  if (!existsSync(dir)) return undefined;
  for (const entry of readdirSync(dir)) {
    const path = join(dir, entry);
    if (entry === name) return path;
    if (statSync(path).isDirectory()) {
      const found = findFile(path, name);
      if (found) return found;
    }
  }
  return undefined;
}

/** Why a scenario failed, from the suite's own records: failed and warning checks, then the client's last words. */
function failureDetail(outDir: string, finished: Finished, outerMs: number): string[] {
  const detail: string[] = [];
  if (finished.timedOut) detail.push(`the suite did not finish within ${outerMs} ms: its process group was killed`);
  const checksFile = findFile(outDir, "checks.json");
  if (checksFile) {
    type Check = { id: string; status: string; description: string; errorMessage?: string; details?: { message?: string } };
    const checks = JSON.parse(readFileSync(checksFile, "utf8")) as Check[];
    for (const check of checks.filter((item) => item.status === "FAILURE" || item.status === "WARNING")) {
      detail.push(`check ${check.id}: ${check.status}: ${check.errorMessage ?? check.details?.message ?? check.description}`);
    }
  }
  for (const line of finished.output.split("\n")) {
    if (/CLIENT TIMED OUT|CLIENT EXITED WITH ERROR|Client timed out|Client test error/.test(line))
      detail.push(`suite: ${line.replace(/^[^A-Za-z]+/, "")}`);
  }
  const stderrFile = findFile(outDir, "stderr.txt");
  const stderr = stderrFile ? readFileSync(stderrFile, "utf8").trim() : "";
  if (stderr)
    detail.push(
      ...stderr
        .split("\n")
        .slice(-4)
        .map((line) => `client stderr: ${line}`),
    );
  if (detail.length === 0)
    detail.push(`the suite exited with ${finished.code}; output: ${finished.output.trim().split("\n").slice(-3).join(" | ")}`);
  return detail;
}

async function main(argv: string[]): Promise<number> {
  const positive = (text: string) => {
    const value = Number(text);
    if (!Number.isInteger(value) || value <= 0) throw new InvalidArgumentError("expected a positive integer (milliseconds)");
    return value;
  };
  const program = new Command("mcp-conformance")
    .description("the official MCP conformance suite's client scenarios against the reference's MCP loader")
    .option("--all", "also run the out-of-scope scenarios (each must fail)")
    .option("--scenario <name...>", "run only these scenarios (names as `conformance list --client` prints them)")
    .option("--baseline <file>", "the baseline", relative(process.cwd(), join(packageDir, "baseline.yaml")))
    .option("--client-command <command>", "the client under test (the URL is appended; no spaces in paths)")
    .option("--timeout <ms>", "the suite's bound on the client, per scenario", positive, 20_000)
    .option("--grace <ms>", "how much longer the suite itself gets before its process group is killed", positive, 15_000)
    .option("--out <dir>", "where the suite's records go, one numbered folder per scenario", join(root, "out/mcp-conformance"))
    .option("--verbose", "echo the suite's output")
    .exitOverride();
  try {
    program.parse(argv, { from: "user" });
  } catch (error) {
    return (error as { exitCode?: number }).exitCode === 0 ? 0 : 2;
  }
  const options = program.opts<{
    all?: boolean;
    scenario?: string[];
    baseline: string;
    clientCommand?: string;
    timeout: number;
    grace: number;
    out: string;
    verbose?: boolean;
  }>();
  let baseline;
  try {
    baseline = loadBaseline(options.baseline);
  } catch (error) {
    if (!(error instanceof BaselineError) && (error as NodeJS.ErrnoException).code !== "ENOENT") throw error;
    console.error(`mcp-conformance: ${(error as Error).message}`);
    return 2;
  }
  const tsx = createRequire(import.meta.url).resolve("tsx/cli");
  const clientCommand = options.clientCommand ?? [process.execPath, tsx, join(packageDir, "client.ts")].join(" ");
  if ([process.execPath, tsx, packageDir].some((path) => /\s/.test(path)) && !options.clientCommand) {
    console.error("mcp-conformance: the suite splits --command on spaces; move the checkout (or node) to a path without spaces");
    return 2;
  }

  await ensureInstalled();
  const { wrap, note } = await isolation();
  const listing = await runBounded(process.execPath, [suiteCli, "list", "--client"], { cwd: packageDir, timeoutMs: 30_000 });
  const listed = listing.output.split("\n").flatMap((line) => /^\s+- (\S+)$/.exec(line)?.[1] ?? []);
  if (listing.code !== 0 || listed.length === 0) {
    console.error(`mcp-conformance: \`conformance list --client\` gave no scenarios (exit ${listing.code}):\n${listing.output}`);
    return 1;
  }
  const unknown = (options.scenario ?? []).filter((name) => !listed.includes(name));
  if (unknown.length) {
    console.error(`mcp-conformance: no such client scenario: ${unknown.join(", ")} (the suite lists: ${listed.join(", ")})`);
    return 2;
  }
  const wanted = options.scenario ?? [...baseline.pass.keys(), ...(options.all ? baseline.outOfScope.keys() : [])];
  const selected = wanted.filter((name) => listed.includes(name));
  console.log(
    `mcp-conformance: @modelcontextprotocol/conformance ${pinned}, ${selected.length} of ${listed.length} client scenarios (${note})`,
  );

  const outRoot = options.out;
  // Only the numbered folders a previous run wrote go, so a mistaken --out cannot empty anything else.
  mkdirSync(outRoot, { recursive: true });
  for (const entry of readdirSync(outRoot)) if (/^\d+$/.test(entry)) rmSync(join(outRoot, entry), { recursive: true, force: true });
  const runs: ScenarioRun[] = [];
  const outerMs = options.timeout + options.grace;
  for (const [index, scenario] of selected.entries()) {
    const outDir = join(outRoot, String(index));
    mkdirSync(outDir, { recursive: true });
    const suiteArgs = [
      suiteCli,
      "client",
      "--command",
      clientCommand,
      "--scenario",
      scenario,
      "--timeout",
      String(options.timeout),
      "-o",
      outDir,
    ];
    const [command, args] = wrap([process.execPath, ...suiteArgs]);
    const started = performance.now();
    const finished = await runBounded(command, args, { cwd: packageDir, timeoutMs: outerMs, echo: options.verbose });
    const passed = finished.code === 0 && !finished.timedOut;
    runs.push({ scenario, passed, detail: passed ? [] : failureDetail(outDir, finished, outerMs), ms: performance.now() - started });
  }

  // With --scenario, the rest of the classification check still runs: the suite's list is at hand.
  const verdict = judge(baseline, listed, runs);
  for (const line of verdict.lines) console.log(line);
  for (const problem of verdict.problems) console.error(`mcp-conformance: ${problem}`);
  const outOfScope = baseline.outOfScope.size - runs.filter((run) => baseline.outOfScope.has(run.scenario)).length;
  console.log(
    `mcp-conformance: ${runs.filter((run) => run.passed).length} passed, ${runs.filter((run) => !run.passed).length} failed, ` +
      `${verdict.problems.length} unexpected; ${outOfScope} out-of-scope scenarios not run${options.all ? "" : " (--all runs them)"}; ` +
      `records in ${outRoot.startsWith(root) ? relative(root, outRoot) : outRoot}/`,
  );
  return verdict.problems.length === 0 ? 0 : 1;
}

main(process.argv.slice(2)).then(
  (code) => {
    process.exitCode = code;
  },
  (error: unknown) => {
    console.error(`mcp-conformance: ${error instanceof Error ? error.message : String(error)}`);
    process.exitCode = 1;
  },
);
