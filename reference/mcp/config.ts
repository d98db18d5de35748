// The MCP config format (SPEC.md 2.1): wrappers, reserved keys, per-server fields and their defaults.
// Parsing never expands header values: `${VAR}` is resolved at connect time (expandHeaders), so a
// parsed config, and anything printed from it, holds no secret.
import { readFileSync } from "node:fs";
import { McpConfigError } from "./errors.ts";

export const DEFAULT_TIMEOUT_MS = 30_000;

/** Unwrapped top-level keys that belong to other toolnexus sections, never servers (mcp.config.wrappers). */
const RESERVED_KEYS = new Set(["builtins", "agents", "a2a", "mcpServer"]);
/** Wrapper keys, in the order they are looked for. */
const WRAPPER_KEYS = ["mcpServers", "servers", "mcp"] as const;

export interface ServerConfig {
  name: string;
  type: "local" | "remote";
  /** local: executable then arguments. */
  command?: string[];
  /** local: merged over the process environment. */
  env?: Record<string, string>;
  cwd?: string;
  /** remote: the endpoint, tried over streamable HTTP then SSE. */
  url?: string;
  /** remote: header templates; values may hold `${VAR}` (see expandHeaders). */
  headers?: Record<string, string>;
  enabled: boolean;
  /** Bound of each phase (start, initialize, list), in ms. */
  timeout: number;
  /** Gap-7 filter keyed by original tool names; undefined = all tools (see filter.ts). */
  tools?: Record<string, boolean>;
  /** Why this enabled entry cannot be used (a missing command, a field of the wrong type): it fails alone. */
  problem?: string;
}

export interface McpConfig {
  /** In config order: the toolkit's tool order follows it (SPEC.md toolkit.order). */
  servers: ServerConfig[];
}

/** What createToolkit / loadMcp / listMcpTools accept: a config object, or the path of a JSON file. */
export type McpConfigInput = Record<string, unknown> | string;

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === "object" && value !== null && !Array.isArray(value);

/**
 * Read and parse a JSON config file (mcp.config.file). Every whole-config error names the file
 * (mcp.connect.isolation): a user with several configs needs to know which one is wrong.
 */
export function readMcpConfigFile(path: string): McpConfig {
  let text: string;
  try {
    text = readFileSync(path, "utf8");
  } catch (error) {
    throw new McpConfigError(`cannot read MCP config file ${path}: ${(error as Error).message}`);
  }
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch (error) {
    throw new McpConfigError(`MCP config file ${path} is not JSON: ${(error as Error).message}`);
  }
  try {
    return parseMcpConfig(data);
  } catch (error) {
    if (error instanceof McpConfigError) throw new McpConfigError(`MCP config file ${path}: ${error.message}`);
    throw error;
  }
}

/** A config object is always parsed: a `servers` list is a wrapper whose value is no object (a config error). */
export function resolveMcpConfig(input: McpConfigInput): McpConfig {
  return typeof input === "string" ? readMcpConfigFile(input) : parseMcpConfig(input);
}

/**
 * Only what leaves no server to name is a whole-config error (McpConfigError): the config (or a
 * wrapper's value) not an object. A server entry the reference cannot use is that server's problem:
 * it gets status `failed` at load time and the others load (mcp.connect.isolation).
 */
export function parseMcpConfig(input: unknown): McpConfig {
  if (!isObject(input)) throw new McpConfigError("MCP config must be an object of servers");
  let entries: Record<string, unknown> | undefined;
  for (const key of WRAPPER_KEYS) {
    const value = input[key];
    if (value === undefined || value === null) continue;
    if (!isObject(value)) throw new McpConfigError(`MCP config: "${key}" must be an object of servers`);
    entries = value;
    break;
  }
  if (!entries) entries = Object.fromEntries(Object.entries(input).filter(([key]) => !RESERVED_KEYS.has(key)));
  return { servers: Object.entries(entries).map(([name, raw]) => parseServer(name, raw)) };
}

/** Thrown inside parseServer only, to stop at an entry's first problem. */
class EntryProblem extends Error {}

function parseServer(name: string, raw: unknown): ServerConfig {
  // Not an object: nothing to read, not even `disabled` (pinned decision 16).
  if (!isObject(raw))
    return { name, type: "local", enabled: true, timeout: DEFAULT_TIMEOUT_MS, problem: "the server entry must be an object" };
  // Only booleans count (mcp.config.enabled): `disabled: "true"` does not disable.
  const enabled = !(raw.disabled === true) && raw.enabled !== false;
  // Only "local" and "remote" are toolnexus types; any other value (the "stdio", "http", "sse" or
  // "streamable-http" of configs pasted from other MCP clients) is ignored and the type inferred from
  // `url` (null: not set), as every port does (mcp.config.type).
  const declared = raw.type === "local" || raw.type === "remote" ? raw.type : undefined;
  const type = declared ?? (raw.url !== undefined && raw.url !== null ? "remote" : "local");
  const config: ServerConfig = { name, type, enabled, timeout: DEFAULT_TIMEOUT_MS };
  try {
    readFields(raw, config);
  } catch (error) {
    if (!(error instanceof EntryProblem)) throw error;
    // Set on a disabled server too, where it stays unseen: openServers never looks past a disabled one.
    config.problem = error.message;
  }
  return config;
}

/** Fill `config` from the entry; throws EntryProblem at the first field of the wrong shape. */
function readFields(server: Record<string, unknown>, config: ServerConfig): void {
  const fail = (what: string): never => {
    throw new EntryProblem(what);
  };
  // 0 (and null) mean "not set" (decision 13): a zero bound would fail every server at once.
  const timeout = server.timeout === 0 || server.timeout === null || server.timeout === undefined ? DEFAULT_TIMEOUT_MS : server.timeout;
  if (typeof timeout !== "number" || !Number.isFinite(timeout) || timeout <= 0) fail("timeout must be a positive number of milliseconds");
  config.timeout = timeout as number;
  if (server.tools !== undefined && server.tools !== null) {
    if (!isObject(server.tools)) fail("tools must be an object of original tool name -> boolean");
    const tools = server.tools as Record<string, unknown>;
    for (const [tool, on] of Object.entries(tools)) if (typeof on !== "boolean") fail(`tools.${tool} must be true or false`);
    config.tools = { ...(tools as Record<string, boolean>) };
  }
  if (config.type === "local") {
    // A string is the executable alone (pinned decision 15); `args` is not read (no port reads it).
    const command = typeof server.command === "string" ? [server.command] : server.command;
    if (!Array.isArray(command) || command.length === 0 || !command.every((part) => typeof part === "string") || command[0] === "") {
      fail("a local server needs `command`, an array of strings (executable, then arguments)");
    }
    config.command = command as string[];
    // null is "not set" for every field, as for timeout (mcp.connect.isolation).
    const env = server.environment ?? server.env;
    if (env !== undefined && env !== null) config.env = stringMap(env, "environment", fail);
    config.cwd = optionalString(server.cwd, "cwd", fail);
    // "" names no directory (decision 36): started as is, Node would run the child in our own.
    if (config.cwd === "") fail("`cwd` is empty: it names no directory to start the server in");
  } else {
    config.url = optionalString(server.url, "url", fail);
    if (config.url === undefined) fail("a remote server needs `url`");
    if (server.headers !== undefined && server.headers !== null) config.headers = stringMap(server.headers, "headers", fail);
  }
}

function optionalString(value: unknown, what: string, fail: (what: string) => never): string | undefined {
  if (value === undefined || value === null) return undefined;
  if (typeof value !== "string") fail(`${what} must be a string`);
  return value as string;
}

function stringMap(value: unknown, what: string, fail: (what: string) => never): Record<string, string> {
  if (!isObject(value)) fail(`${what} must be an object of strings`);
  const out: Record<string, string> = {};
  for (const [key, item] of Object.entries(value as Record<string, unknown>)) {
    if (typeof item !== "string") fail(`${what}.${key} must be a string`);
    out[key] = item as string;
  }
  return out;
}

/**
 * Expand `${VAR}` in header values from the environment; unset => "" (mcp.config.headers-expand).
 * The result holds credentials: callers pass it to the transport and nowhere else.
 */
export function expandHeaders(headers: Record<string, string> | undefined, env: NodeJS.ProcessEnv = process.env): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [key, value] of Object.entries(headers ?? {})) {
    out[key] = value.replace(/\$\{([A-Za-z_][A-Za-z0-9_]*)\}/g, (_, name: string) => env[name] ?? "");
  }
  return out;
}

/** The child's environment: the process environment with the server's own entries on top. */
export function childEnvironment(server: ServerConfig): Record<string, string> {
  const env: Record<string, string> = {};
  for (const [key, value] of Object.entries(process.env)) if (value !== undefined) env[key] = value;
  return { ...env, ...(server.env ?? {}) };
}
