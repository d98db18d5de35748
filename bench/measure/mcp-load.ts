// Load time of 8 MCP servers against 1: the reference's createToolkit over mcp-abc, timed until the
// toolkit is built (connect, initialize, list, for every server in parallel), then closed untimed.
// Over streamable HTTP (the target row; the 8 fixture servers live in a child process, so their work
// is not on the measured event loop) and over stdio (info: each server is a node child process, so on
// a small machine 8 cold starts compete for the cores). A 1-server and an 8-server load alternate;
// each pair gives one ratio. The load's CPU time (process.cpuUsage) is kept beside its wall time: CPU
// close to wall means the load is bound by this process's one thread, which parallel connects cannot
// help.
import { spawn, type ChildProcess } from "node:child_process";
import { closeProcessGroup } from "../../conformance/subjects/process-group.ts";
import { mkdtemp, rm } from "node:fs/promises";
import { createInterface } from "node:readline";
import { fileURLToPath } from "node:url";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fixtureKinds } from "../../fixtures/registry.ts";
import type { FixtureInstance } from "../../fixtures/fixture.ts";
import { createToolkit } from "../../reference/index.ts";
import { pairedRatios, summarize } from "../lib/stats.ts";
import type { Row } from "../lib/table.ts";
import { inProcess, type BenchContext } from "./context.ts";

const servers = 8;

interface Load {
  wallMs: number;
  cpuMs: number;
}

async function timeLoad(config: Record<string, unknown>, expectedServers: number): Promise<Load> {
  const cpu = process.cpuUsage();
  const started = performance.now();
  const toolkit = await createToolkit({ mcpConfig: config, logger: { warn: () => undefined } });
  const elapsed = performance.now() - started;
  const used = process.cpuUsage(cpu);
  const status = Object.values(toolkit.mcpStatus());
  await toolkit.close();
  const connected = status.filter((value) => value === "connected").length;
  if (connected !== expectedServers) throw new Error(`expected ${expectedServers} connected servers, got ${connected}`);
  return { wallMs: elapsed, cpuMs: (used.user + used.system) / 1000 };
}

/** The HTTP fixture servers in a child process: their configs, and a stop. */
async function httpServersChild(count: number): Promise<{ servers: Record<string, unknown>[]; stop(): Promise<void> }> {
  const script = fileURLToPath(new URL("../child/mcp-http-servers.ts", import.meta.url));
  const child: ChildProcess = spawn(process.execPath, ["--import", "tsx", script, String(count)], { stdio: ["pipe", "pipe", "inherit"], detached: true });
  const stop = async () => {
    await closeProcessGroup(child, 3_000);
  };
  try {
    const line = await new Promise<string>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error("the MCP server child did not start within 30 s")), 30_000);
      const lines = createInterface({ input: child.stdout! });
      lines.on("line", (text) => {
        if (!text.startsWith("BENCH-RESULT ")) return;
        clearTimeout(timer);
        lines.close();
        resolve(text.slice("BENCH-RESULT ".length));
      });
      child.once("exit", (code) => reject(new Error(`the MCP server child exited with ${code}`)));
    });
    return { servers: (JSON.parse(line) as { servers: Record<string, unknown>[] }).servers, stop };
  } catch (error) {
    await stop();
    throw error;
  }
}

async function measureTransport(context: BenchContext, transport: "http" | "stdio"): Promise<Row[]> {
  const { options, log } = context;
  const workDir = await mkdtemp(join(tmpdir(), "tnc-bench-"));
  const started: FixtureInstance[] = [];
  let child: Awaited<ReturnType<typeof httpServersChild>> | undefined;
  try {
    // HTTP: one fixture server per MCP server, in a child process. stdio: one fixture (one command line), named 8 times.
    let configs: Record<string, unknown>[];
    if (transport === "http") {
      child = await httpServersChild(servers);
      configs = child.servers;
    } else {
      started.push(await fixtureKinds.get("mcp-abc")!.start({ transport }, { scenarioId: "bench.mcp-load", workDir: join(workDir, "s0") }));
      configs = [(started[0].vars as { server: Record<string, unknown> }).server];
    }
    const server = (index: number) => configs[index % configs.length];
    const config = (size: number) => ({ mcpServers: Object.fromEntries(Array.from({ length: size }, (_, index) => [`s${index + 1}`, server(index)])) });
    const one = config(1);
    const eight = config(servers);
    await timeLoad(one, 1); // warm-up: module loading, JIT
    await timeLoad(eight, servers);
    const singles: Load[] = [];
    const eights: Load[] = [];
    for (let pair = 0; pair < options.runs * options.loadPairsPerRun; pair++) {
      // Alternate which goes first, so drift on a noisy machine does not favour either.
      if (pair % 2 === 0) {
        singles.push(await timeLoad(one, 1));
        eights.push(await timeLoad(eight, servers));
      } else {
        eights.push(await timeLoad(eight, servers));
        singles.push(await timeLoad(one, 1));
      }
    }
    const wall = (loads: Load[]) => loads.map((load) => load.wallMs);
    const cpu = (loads: Load[]) => loads.map((load) => load.cpuMs);
    const ratios = pairedRatios(wall(eights), wall(singles));
    log(`mcp-load ${transport}: 1 server ${summarize(wall(singles)).median.toFixed(1)} ms, 8 servers ${summarize(wall(eights)).median.toFixed(1)} ms, ratio ${summarize(ratios).median.toFixed(2)}`);
    const label = transport === "http" ? "streamable HTTP" : "stdio";
    return [
      {
        group: "mcp-load",
        figure: `MCP load 8 servers / 1, ${label}`,
        subject: inProcess,
        unit: "x",
        summary: summarize(ratios),
        target: transport === "http" ? { stat: "median", op: "<=", value: 1.5 } : undefined,
        note: `mcp-abc over ${label}, ${ratios.length} alternating 1/8 pairs; ${transport === "stdio" ? "8 node child processes start at once (CPU-bound on 2 cores)" : "8 fixture servers in a child process"}`,
      },
      {
        group: "mcp-load",
        figure: `MCP load 8 servers / (8 x 1 server), ${label}`,
        subject: inProcess,
        unit: "x",
        summary: summarize(pairedRatios(wall(eights), wall(singles).map((ms) => ms * servers))),
        note: "below 1: what loading the servers in parallel saves against loading them one after another",
      },
      { group: "mcp-load", figure: `MCP load, 1 server, ${label}`, subject: inProcess, unit: "ms", summary: summarize(wall(singles)) },
      { group: "mcp-load", figure: `MCP load, 8 servers, ${label}`, subject: inProcess, unit: "ms", summary: summarize(wall(eights)) },
      { group: "mcp-load", figure: `MCP load CPU time, 1 server, ${label}`, subject: inProcess, unit: "ms", summary: summarize(cpu(singles)) },
      { group: "mcp-load", figure: `MCP load CPU time, 8 servers, ${label}`, subject: inProcess, unit: "ms", summary: summarize(cpu(eights)) },
    ];
  } finally {
    await Promise.all(started.map((fixture) => fixture.stop()));
    await child?.stop();
    await rm(workDir, { recursive: true, force: true });
  }
}

export async function measureMcpLoad(context: BenchContext): Promise<Row[]> {
  return [...(await measureTransport(context, "http")), ...(await measureTransport(context, "stdio"))];
}
