// Load time of 8 MCP servers against 1: the reference's createToolkit over mcp-abc, timed until the
// toolkit is built (connect, initialize, list, for every server in parallel), then closed untimed.
// Over streamable HTTP (the target row; the 8 fixture servers live in a child process, so their work
// is not on the measured event loop) and over stdio (info: each server is a node child process, so on
// a small machine 8 cold starts compete for the cores). A 1-server and an 8-server load alternate;
// each pair gives one ratio. The load's CPU time (process.cpuUsage) is kept beside its wall time: CPU
// close to wall means the load is bound by this process's one thread, which parallel connects cannot
// help. The target is the reference's 8-server load against the bare MCP SDK connecting the same 8
// servers concurrently (connect + initialize + tools/list each, Promise.all), paired within an
// iteration: what the reference adds over the SDK's own cost, which a ratio to 1 server cannot show
// (each server's load costs about 20 ms of CPU in Node's HTTP stack, so 8 never cost what 1 does).
import { spawn, type ChildProcess } from "node:child_process";
import { closeProcessGroup } from "../../conformance/common/process-group.ts";
import { mkdtemp, rm } from "node:fs/promises";
import { createInterface } from "node:readline";
import { fileURLToPath } from "node:url";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fixtureKinds } from "../../fixtures/registry.ts";
import type { FixtureInstance } from "../../conformance/scenario/fixture.ts";
import { createToolkit } from "../../reference/index.ts";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
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

/** The floor: the bare SDK connects every server of the config at once and lists its tools; closed untimed. */
async function timeBareLoad(config: { mcpServers: Record<string, unknown> }): Promise<Load> {
  const cpu = process.cpuUsage();
  const started = performance.now();
  const clients = await Promise.all(
    Object.values(config.mcpServers).map(async (entry) => {
      const server = entry as { url?: string; command?: string[] };
      const transport = server.url
        ? new StreamableHTTPClientTransport(new URL(server.url))
        : new StdioClientTransport({ command: server.command![0], args: server.command!.slice(1), stderr: "ignore" });
      const client = new Client({ name: "bench-bare-sdk", version: "0" });
      await client.connect(transport);
      await client.listTools();
      return client;
    }),
  );
  const elapsed = performance.now() - started;
  const used = process.cpuUsage(cpu);
  await Promise.all(clients.map((client) => client.close()));
  return { wallMs: elapsed, cpuMs: (used.user + used.system) / 1000 };
}

/** The HTTP fixture servers in a child process: their configs, and a stop. */
async function httpServersChild(count: number): Promise<{ servers: Record<string, unknown>[]; stop(): Promise<void> }> {
  const script = fileURLToPath(new URL("../child/mcp-http-servers.ts", import.meta.url));
  const child: ChildProcess = spawn(process.execPath, ["--import", "tsx", script, String(count)], {
    stdio: ["pipe", "pipe", "inherit"],
    detached: true,
  });
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
    const config = (size: number) => ({
      mcpServers: Object.fromEntries(Array.from({ length: size }, (_, index) => [`s${index + 1}`, server(index)])),
    });
    const one = config(1);
    const eight = config(servers);
    await timeLoad(one, 1); // warm-up: module loading, JIT
    await timeLoad(eight, servers);
    await timeBareLoad(eight);
    const singles: Load[] = [];
    const eights: Load[] = [];
    const bares: Load[] = [];
    for (let pair = 0; pair < options.runs * options.loadPairsPerRun; pair++) {
      // Rotate which goes first, so drift on a noisy machine does not favour any.
      const turns = [
        () => timeLoad(one, 1).then((load) => singles.push(load)),
        () => timeLoad(eight, servers).then((load) => eights.push(load)),
        () => timeBareLoad(eight).then((load) => bares.push(load)),
      ];
      for (let turn = 0; turn < turns.length; turn++) await turns[(pair + turn) % turns.length]();
    }
    const wall = (loads: Load[]) => loads.map((load) => load.wallMs);
    const cpu = (loads: Load[]) => loads.map((load) => load.cpuMs);
    const ratios = pairedRatios(wall(eights), wall(singles));
    const overBare = pairedRatios(wall(eights), wall(bares));
    log(
      `mcp-load ${transport}: 1 server ${summarize(wall(singles)).median.toFixed(1)} ms, 8 servers ${summarize(wall(eights)).median.toFixed(1)} ms, ` +
        `bare SDK 8 servers ${summarize(wall(bares)).median.toFixed(1)} ms, ratio to bare ${summarize(overBare).median.toFixed(2)}`,
    );
    const label = transport === "http" ? "streamable HTTP" : "stdio";
    return [
      {
        group: "mcp-load",
        figure: `MCP load 8 servers / bare SDK 8 servers, ${label}`,
        subject: inProcess,
        unit: "x",
        summary: summarize(overBare),
        target: transport === "http" ? { stat: "median", op: "<=", value: 1.2 } : undefined,
        note:
          `mcp-abc over ${label}, ${overBare.length} rotating turns; ` +
          `the bare side: the MCP SDK's Client connecting all 8 at once, initialize + tools/list each` +
          `${transport === "stdio" ? "; 8 node child processes start at once (CPU-bound on 2 cores)" : "; 8 fixture servers in a child process"}`,
      },
      {
        group: "mcp-load",
        figure: `MCP load 8 servers / 1, ${label}`,
        subject: inProcess,
        unit: "x",
        summary: summarize(ratios),
        note: "info: each server's load costs CPU in Node's HTTP stack (about 20 ms each), so 8 never cost what 1 does; the target is the ratio to the bare SDK above",
      },
      {
        group: "mcp-load",
        figure: `MCP load, bare SDK 8 servers, ${label}`,
        subject: inProcess,
        unit: "ms",
        summary: summarize(wall(bares)),
      },
      {
        group: "mcp-load",
        figure: `MCP load 8 servers / (8 x 1 server), ${label}`,
        subject: inProcess,
        unit: "x",
        summary: summarize(
          pairedRatios(
            wall(eights),
            wall(singles).map((ms) => ms * servers),
          ),
        ),
        note: "below 1: what loading the servers in parallel saves against loading them one after another",
      },
      { group: "mcp-load", figure: `MCP load, 1 server, ${label}`, subject: inProcess, unit: "ms", summary: summarize(wall(singles)) },
      { group: "mcp-load", figure: `MCP load, 8 servers, ${label}`, subject: inProcess, unit: "ms", summary: summarize(wall(eights)) },
      {
        group: "mcp-load",
        figure: `MCP load CPU time, 1 server, ${label}`,
        subject: inProcess,
        unit: "ms",
        summary: summarize(cpu(singles)),
      },
      {
        group: "mcp-load",
        figure: `MCP load CPU time, 8 servers, ${label}`,
        subject: inProcess,
        unit: "ms",
        summary: summarize(cpu(eights)),
      },
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
