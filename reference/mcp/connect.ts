// Connecting to one MCP server (SPEC.md 2.2): stdio for local servers; streamable HTTP then SSE for
// remote ones. Every phase is bounded by the server's timeout and by the caller's signal (2.6), and a
// connection that fails is closed before the failure is reported, so nothing outlives a failed attempt.
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { SSEClientTransport } from "@modelcontextprotocol/sdk/client/sse.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { StreamableHTTPClientTransport, StreamableHTTPError } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import type { Transport } from "@modelcontextprotocol/sdk/shared/transport.js";
import type { WaitFor } from "../types.ts";
import { boundPhase, delay } from "./abort.ts";
import { childEnvironment, expandHeaders, type ServerConfig } from "./config.ts";
import { createMcpClient } from "./elicitation.ts";
import { cancellationError } from "./errors.ts";
import { createOwnedFetch, type OwnedFetch } from "./owned-fetch.ts";

export const CLIENT_INFO = { name: "toolnexus", version: "0.16.0" };

export type TransportKind = "stdio" | "http" | "sse";

/** A tool as the server listed it (original name, schema as given). */
export interface ListedTool {
  name: string;
  description?: string;
  inputSchema: Record<string, unknown>;
}

export interface McpConnection {
  readonly server: ServerConfig;
  readonly client: Client;
  readonly transport: TransportKind;
  /** Bounded and idempotent. `force` kills a stdio child at once instead of letting it exit on EOF. */
  close(options?: { force?: boolean }): Promise<void>;
}

/** How long a closing stdio child gets to exit on its own before it is killed, and to die after that. */
const GRACE_MS = 1000;
const KILL_WAIT_MS = 1000;
/** How long a graceful close waits for the server to answer the DELETE that ends its session. */
const SESSION_END_MS = 1000;

/**
 * Connect and initialize. Resolves with an open connection or rejects; in both the timeout and the
 * cancel case everything this attempt opened has been closed by the time it rejects.
 */
export async function connectServer(server: ServerConfig, signal?: AbortSignal, waitFor?: WaitFor): Promise<McpConnection> {
  if (server.type === "local") return connectWith(server, "stdio", signal, waitFor);
  // A cancel needs no check here: connectWith then rejects with the cancellation error (no 4xx, so no
  // fallback), and openServers rejects the load with it whatever error a server's attempt ended with.
  try {
    return await connectWith(server, "http", signal, waitFor);
  } catch (httpError) {
    if (!meansStreamableUnsupported(httpError)) throw httpError;
    try {
      return await connectWith(server, "sse", signal, waitFor);
    } catch (sseError) {
      throw new Error(`streamable HTTP failed (${message(httpError)}); SSE fallback failed (${message(sseError)})`);
    }
  }
}

/**
 * mcp.connect.sse-fallback: only a 4xx answer to the initialize POST says "this server does not speak
 * streamable HTTP" (the MCP spec's backwards-compatibility rule names 404 and 405). 401 and 403 are
 * the server refusing these credentials, and a 5xx, a network error or no answer say nothing about the
 * transport: retrying over SSE would hide that error behind another and, for a hung server, double the wait.
 */
export function meansStreamableUnsupported(error: unknown): boolean {
  if (!(error instanceof StreamableHTTPError) || error.code === undefined) return false;
  return error.code >= 400 && error.code < 500 && error.code !== 401 && error.code !== 403;
}

function createTransport(server: ServerConfig, kind: TransportKind, owned: OwnedFetch | undefined): Transport {
  if (kind === "stdio") {
    // config.ts gives every usable local entry a non-empty executable; one without is failed (ServerConfig.problem)
    // before it gets here (open.ts), so no check is repeated here.
    const [command, ...args] = server.command as [string, ...string[]];
    return new StdioClientTransport({ command, args, env: childEnvironment(server), cwd: server.cwd });
  }
  // Headers are expanded here, at the last moment, and handed to the transport only (mcp.config.secrets).
  const requestInit: RequestInit = { headers: expandHeaders(server.headers) };
  // config.ts gives every usable remote entry a url, and connectWith an owned fetch to every remote kind.
  const url = new URL(server.url as string);
  const fetch = (owned as OwnedFetch).fetch;
  return kind === "http"
    ? new StreamableHTTPClientTransport(url, { requestInit, fetch })
    : new SSEClientTransport(url, { requestInit, fetch });
}

async function connectWith(server: ServerConfig, kind: TransportKind, parent?: AbortSignal, waitFor?: WaitFor): Promise<McpConnection> {
  const owned = kind === "stdio" ? undefined : createOwnedFetch();
  let transport: Transport;
  try {
    transport = createTransport(server, kind, owned);
  } catch (error) {
    owned?.destroy();
    throw error;
  }
  const client = createMcpClient(CLIENT_INFO, waitFor);
  const connection = new Connection(server, client, kind, transport, owned);
  // The SDK starts the transport inside client.connect and bounds only the initialize request, so the
  // start (child spawn, SSE endpoint wait) is wrapped here to get its own bound.
  const start = transport.start.bind(transport);
  let startDone: Promise<void> | undefined;
  transport.start = () => {
    startDone = boundPhase(server.name, `${kind} start`, server.timeout, parent, async () => {
      const started = start();
      connection.notePid(); // the child exists from here on: record it so it can be killed whatever happens next
      await started;
    });
    return startDone;
  };
  try {
    const connecting = client.connect(transport, { signal: parent, timeout: server.timeout });
    connecting.catch(() => undefined);
    await startDone; // set synchronously by client.connect -> transport.start in SDK 1.x
    await boundPhase(server.name, "initialize", server.timeout, parent, () => connecting);
    return connection;
  } catch (error) {
    await connection.close({ force: true });
    // A cancel that lands during that close must not leave a 4xx behind it to start the SSE fallback.
    if (parent?.aborted) throw cancellationError(parent);
    throw error;
  }
}

/** List every page of tools/list, the whole phase bounded by the server timeout (mcp.connect.pagination). */
export function listAllTools(connection: McpConnection, parent?: AbortSignal): Promise<ListedTool[]> {
  const { server, client } = connection;
  return boundPhase(server.name, "tools/list", server.timeout, parent, async (signal) => {
    const tools: ListedTool[] = [];
    const seen = new Set<string>();
    let cursor: string | undefined;
    do {
      const page = await client.listTools(cursor === undefined ? undefined : { cursor }, { signal, timeout: server.timeout });
      for (const tool of page.tools) tools.push({ name: tool.name, description: tool.description, inputSchema: tool.inputSchema });
      cursor = page.nextCursor;
      // A server that hands back a cursor it already gave would loop until the timeout; fail fast instead.
      if (cursor !== undefined && seen.has(cursor)) throw new Error(`tools/list repeated cursor "${cursor}"`);
      if (cursor !== undefined) seen.add(cursor);
    } while (cursor !== undefined);
    return tools;
  });
}

class Connection implements McpConnection {
  private pid: number | undefined;
  private closing: Promise<void> | undefined;

  constructor(
    readonly server: ServerConfig,
    readonly client: Client,
    readonly transport: TransportKind,
    private readonly raw: Transport,
    private readonly owned: OwnedFetch | undefined,
  ) {}

  notePid(): void {
    if (this.raw instanceof StdioClientTransport) this.pid = this.raw.pid ?? undefined;
  }

  close(options: { force?: boolean } = {}): Promise<void> {
    this.closing ??= this.shutdown(options.force === true);
    return this.closing;
  }

  private async shutdown(force: boolean): Promise<void> {
    // mcp.connect.http-session-end: a graceful close ends the streamable-HTTP session with a DELETE
    // (the MCP spec's SHOULD), bounded so a server that stopped answering cannot hold close up. A forced
    // close (a failed attempt, a cancel) skips it: it must finish at once (pinned decision 6).
    if (!force && this.raw instanceof StreamableHTTPClientTransport && this.raw.sessionId !== undefined) {
      const ending = this.raw.terminateSession().catch(() => undefined);
      await Promise.race([ending, delay(Math.min(this.server.timeout, SESSION_END_MS))]);
    }
    const pid = this.pid;
    // The SDK's stdio close() ends the child's stdin and waits up to 2 s before SIGTERM; a stuck child
    // ignores EOF, so on a forced close the child is killed first and the SDK's wait ends at once.
    if (pid !== undefined && force) kill(pid);
    const closed = this.client.close().catch(() => undefined);
    if (pid !== undefined && !(await waitForExit(pid, force ? KILL_WAIT_MS : GRACE_MS))) {
      kill(pid);
      await waitForExit(pid, KILL_WAIT_MS);
    }
    // The SDK's HTTP close aborts its requests; destroying the agent also drops sockets it parked.
    this.owned?.destroy();
    await Promise.race([closed, delay(KILL_WAIT_MS)]);
  }
}

function kill(pid: number): void {
  try {
    process.kill(pid, "SIGKILL");
  } catch {
    // already gone
  }
}

export function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
}

async function waitForExit(pid: number, ms: number): Promise<boolean> {
  const until = Date.now() + ms;
  while (isAlive(pid)) {
    if (Date.now() >= until) return false;
    await delay(20);
  }
  return true; // gone: signal 0 failed with ESRCH
}

export function message(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
