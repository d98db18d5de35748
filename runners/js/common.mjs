// Shared pieces of the js runner: the runner's own errors, the session of handles, the capture of
// the port's warnings, and the classification of what the port throws into protocol error kinds.
import { format } from "node:util";

/** A failure the runner detects itself (unknown handle, duplicate handle), with its protocol kind. */
export class ContractError extends Error {
  constructor(kind, message) {
    super(message);
    this.name = "ContractError";
    this.kind = kind;
  }
}

/** The port has no way to perform this operation or option: answered `unsupported`. */
export class Unsupported extends Error {}

export function requireHandle(map, name, what) {
  const entry = map.get(String(name));
  if (entry === undefined) throw new ContractError("other", `no ${what} named "${String(name)}" in this session`);
  return entry;
}

/** A deep copy as JSON carries it (what the wire and the protocol see). */
export const jsonCopy = (value) => (value === undefined ? null : JSON.parse(JSON.stringify(value)));

// ---- warnings ----
// The 0.16.0 port has no logger option: it writes its warnings with console.warn("[toolnexus] ...")
// (e.g. client.ts:371, mcp.ts:149, 302, toolkit.ts:75). console.warn is replaced once, at start-up, by a
// function that still writes to stderr and also hands each message to the sink of the operation in
// flight (the harness sends one operation at a time). A warning printed after its operation ended
// reaches stderr only.
let sink;
const stderrWarn = (...args) => process.stderr.write(`${format(...args)}\n`);
console.warn = (...args) => {
  stderrWarn(...args);
  sink?.push(format(...args));
};

/** Run `call` with the port's warnings collected into `target` (an array). */
export async function capturingWarnings(target, call) {
  const previous = sink;
  sink = target;
  try {
    return await call();
  } finally {
    sink = previous;
  }
}

// ---- errors ----
// The 0.16.0 port throws plain `Error`s on the LLM path; its messages are fixed:
//   `LLM ${status}: ${body}` for a non-2xx answer after retries (client.ts:721, 940, 1034),
//   `run timeout after ${ms}ms`, the abort reason of its own timeoutMs timer (client.ts:642), which
//   fetch, the Retry-After delay and the body reader reject with.
// The caller's AbortSignal (MCP loads) is re-thrown as its own reason (mcp.ts raceTimeout): a
// DOMException named AbortError for AbortController.abort(), TimeoutError for AbortSignal.timeout().
const HTTP_ERROR = /^LLM (\d{3}): ([\s\S]*)$/;
const RUN_TIMEOUT = /^run timeout after \d+ms$/;
const BODY_EXCERPT_LIMIT = 500;

function typeName(error) {
  if (error instanceof Error) return error.constructor?.name && error.constructor.name !== "Error" ? error.constructor.name : error.name;
  return typeof error;
}

/** The port's error as a protocol error {kind, type, message, details?} (runners/PROTOCOL.md#error-kinds). */
export function classify(op, error) {
  if (error instanceof ContractError) return { kind: error.kind, type: "runner", message: error.message };
  const message = error instanceof Error ? error.message : String(error);
  const out = { kind: "other", type: typeName(error), message };
  const name = error instanceof Error || (typeof error === "object" && error !== null) ? error.name : undefined;
  const http = HTTP_ERROR.exec(message);
  if (http) {
    out.kind = "http";
    out.details = { status: Number(http[1]), bodyExcerpt: http[2].slice(0, BODY_EXCERPT_LIMIT) };
  } else if (name === "TimeoutError" || RUN_TIMEOUT.test(message)) {
    out.kind = "deadline";
  } else if (name === "AbortError") {
    out.kind = "cancelled";
  } else if (op === "toolkit.execute") {
    // Toolkit.execute calls the tool's execute without a catch (toolkit.ts:221-227): what it
    // rejects with is a tool failure.
    out.kind = "tool";
  }
  return out;
}
