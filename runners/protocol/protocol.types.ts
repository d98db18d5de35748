// Generated from runners/protocol/protocol.schema.json by scripts/gen-types.ts. Do not edit; run `npm run gen:types`.

/**
 * Every line of the runner protocol (runners/PROTOCOL.md), whose version is $defs.version. Operation inputs: operations.schema.json; operation outputs (a result's value): outputs.schema.json.
 */
export type ProtocolMessage = HelloRequest | HelloAnswer | Request | Result | Error | Crash;
/**
 * The protocol version this schema describes: the harness asks for it in the handshake, and refuses a runner that answers another.
 */
export type Version = 2;
/**
 * runner -> harness: exactly one of implementation, unavailable, error.
 */
export type HelloAnswer = {
  type: "hello";
  from: "runner";
  /**
   * The version the runner speaks: the requested one, or (with error) the one it does speak.
   */
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
  | "mcp.config-file"
  | "client.suspension"
  | "client.hooks-after"
  | "client.metrics"
  | "client.in-process"
  | "mcp.elicitation";
export type HelloAnswer1 = {
  [k: string]: unknown;
};
/**
 * What ended an operation (runners/PROTOCOL.md#error-kinds); unsupported: the implementation has no way to perform this operation or option.
 */
export type ErrorKind =
  | "cancelled"
  | "deadline"
  | "http"
  | "stream"
  | "empty_response"
  | "config"
  | "tool"
  | "other"
  | "unsupported";

/**
 * harness -> runner, the first line.
 */
export interface HelloRequest {
  type: "hello";
  from: "harness";
  protocol: Version;
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
  input: {
    [k: string]: unknown;
  };
}
export interface Result {
  type: "result";
  seq: number;
  elapsedMs: number;
  value: {
    [k: string]: unknown;
  };
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
  kind: ErrorKind;
  type?: string;
  message: string;
  details?: {
    [k: string]: unknown;
  };
}
/**
 * The runner itself failed (not the implementation).
 */
export interface Crash {
  type: "crash";
  seq: number;
  message: string;
}
