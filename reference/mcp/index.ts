// The MCP source's public surface (re-exported from reference/index.ts).
export { DEFAULT_TIMEOUT_MS, expandHeaders, parseMcpConfig, readMcpConfigFile, resolveMcpConfig } from "./config.ts";
export type { McpConfig, McpConfigInput, ServerConfig } from "./config.ts";
export { McpCancelledError, McpConfigError, McpDeadlineError, McpPhaseTimeoutError } from "./errors.ts";
export { filterTools } from "./filter.ts";
export { exposedName, normalizeSchema, sanitize } from "./naming.ts";
export { loadMcp, type LoadMcpOptions, type McpSource } from "./load.ts";
export { listMcpTools, type McpInventory, type ToolInfo } from "./inventory.ts";
export { flattenResult } from "./execute.ts";
