// The part the load and the inventory share (SPEC.md 2.2, 2.6, 2.7): connect to every enabled server
// concurrently, list its tools, isolate failures, and on a parent cancel close everything before
// rejecting (pinned decision 6).
import type { Logger, McpServerStatus, WaitFor } from "../types.ts";
import { expandHeaders, type McpConfig, type ServerConfig } from "./config.ts";
import { connectServer, listAllTools, message, type ListedTool, type McpConnection } from "./connect.ts";
import { cancellationError, throwIfCancelled } from "./errors.ts";

export interface ServerOutcome {
  server: ServerConfig;
  status: McpServerStatus;
  /** Present when connected. */
  connection?: McpConnection;
  listed?: ListedTool[];
  error?: string;
}

export interface OpenOptions {
  signal?: AbortSignal;
  logger: Logger;
  /** Where a server's elicitations go (mcp.elicitation.*); none: the client advertises no elicitation. */
  waitFor?: WaitFor;
}

/** Outcomes in config order. Rejects only with the cancellation error, and only after cleanup. */
export async function openServers(config: McpConfig, { signal, logger, waitFor }: OpenOptions): Promise<ServerOutcome[]> {
  throwIfCancelled(signal);
  const attempts = config.servers.map((server) => {
    if (!server.enabled) return Promise.resolve<ServerOutcome>({ server, status: "disabled" });
    // An entry that cannot be used fails alone, without being contacted (mcp.connect.isolation).
    if (server.problem !== undefined) return Promise.resolve<ServerOutcome>({ server, status: "failed", error: server.problem });
    return openOne(server, signal, waitFor);
  });
  // Every attempt reacts to the parent signal by itself (each phase races it) and closes what it
  // opened before settling, so waiting for all of them is prompt and leaves nothing behind.
  const outcomes = await Promise.all(attempts);
  if (signal?.aborted) {
    await closeOutcomes(outcomes, true);
    throw cancellationError(signal);
  }
  const redact = redactor(config);
  for (const outcome of outcomes) {
    if (outcome.status === "failed") logger.warn(redact(`MCP server "${outcome.server.name}" failed: ${outcome.error}`));
  }
  return outcomes;
}

async function openOne(server: ServerConfig, signal?: AbortSignal, waitFor?: WaitFor): Promise<ServerOutcome> {
  let connection: McpConnection | undefined;
  try {
    connection = await connectServer(server, signal, waitFor);
    const listed = await listAllTools(connection, signal);
    return { server, status: "connected", connection, listed };
  } catch (error) {
    await connection?.close({ force: true });
    return { server, status: "failed", error: message(error) };
  }
}

export async function closeOutcomes(outcomes: ServerOutcome[], force: boolean): Promise<void> {
  await Promise.all(outcomes.map((outcome) => outcome.connection?.close({ force })));
}

/**
 * Belt and braces for mcp.config.secrets: nothing builds a warning from headers, but an error text from
 * a transport could echo one back, so expanded values are masked in every warning of the load.
 */
export function redactor(config: McpConfig): (text: string) => string {
  const secrets = config.servers
    .flatMap((server) => Object.values(expandHeaders(server.headers)))
    .flatMap((value) => [value, ...value.split(/\s+/)])
    .filter((value) => value.length >= 4)
    .sort((a, b) => b.length - a.length);
  return (text) => secrets.reduce((out, secret) => out.split(secret).join("[redacted]"), text);
}
