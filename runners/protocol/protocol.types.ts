// Generated from runners/protocol/protocol.schema.json by scripts/gen-types.ts. Do not edit; run `npm run gen:types`.

/**
 * Every line of the runner protocol, version 1 (runners/PROTOCOL.md). Operation inputs: operations.schema.json.
 */
export type ProtocolMessage = HelloRequest | HelloAnswer | Request | Result | Error | Unsupported | Crash;
/**
 * runner -> harness: exactly one of implementation, unavailable, error.
 */
export type HelloAnswer = {
  type: "hello";
  from: "runner";
  protocol: number;
  implementation?: Implementation;
  /**
   * Why the implementation cannot run here, e.g. the installer's own error.
   */
  unavailable?: string;
  /**
   * The runner does not speak the requested protocol version.
   */
  error?: string;
} & HelloAnswer1;
/**
 * A feature a runner's implementation supports (runners/PROTOCOL.md#capabilities).
 */
export type Capability =
  | "client.run"
  | "client.stream"
  | "client.stream-history"
  | "client.ask"
  | "style.openai"
  | "style.anthropic"
  | "client.request-params"
  | "client.body-transform"
  | "client.hooks"
  | "client.transport"
  | "client.store-accessor"
  | "client.retries"
  | "client.cancel"
  | "toolkit.extra-tools"
  | "toolkit.adapters"
  | "toolkit.introspection"
  | "mcp.stdio"
  | "mcp.http"
  | "mcp.sse"
  | "mcp.cancel"
  | "mcp.deadline"
  | "mcp.allowlist"
  | "mcp.inventory"
  | "mcp.parse"
  | "mcp.config-file";
export type HelloAnswer1 = {
  [k: string]: unknown;
};

/**
 * harness -> runner, the first line.
 */
export interface HelloRequest {
  type: "hello";
  from: "harness";
  protocol: number;
}
export interface Implementation {
  name: string;
  language: string;
  package: string;
  version: string;
  capabilities: Capability[];
  /**
   * The releases of the implementation this runner drives, e.g. ">=0.9.0"; shown in reports.
   */
  supports?: string;
}
/**
 * harness -> runner.
 */
export interface Request {
  type: "request";
  seq: number;
  op: string;
  input: {};
}
export interface Result {
  type: "result";
  seq: number;
  elapsedMs: number;
  value: {};
  /**
   * What the runner had to substitute to perform this operation on this release (e.g. an empty toolkit where the release requires one); the report shows it with the scenario.
   */
  notes?: string[];
}
export interface Error {
  type: "error";
  seq: number;
  elapsedMs: number;
  error: OperationError;
  /**
   * What the runner had to substitute to perform this operation on this release (e.g. an empty toolkit where the release requires one); the report shows it with the scenario.
   */
  notes?: string[];
}
export interface OperationError {
  kind: "cancelled" | "deadline" | "http" | "stream" | "empty_response" | "config" | "tool" | "other";
  type?: string;
  message: string;
  details?: {};
}
export interface Unsupported {
  type: "unsupported";
  seq: number;
  reason: string;
}
/**
 * The runner itself failed (not the implementation).
 */
export interface Crash {
  type: "crash";
  seq: number;
  message: string;
}
