// The reference's side of runners/PROTOCOL.md: one protocol message in, its answer out. The `ts`
// runner is a pipe around it and the in-process subject calls it through an in-memory transport, so
// the two answer alike by construction; this is also the one place the reference's errors become
// protocol error kinds.
import { createRequire } from "node:module";
import type { Capability, Implementation, OperationError, Request } from "../../../runners/protocol/protocol.types.ts";
import { inputValidator, isOperationName, knownCapabilities, protocolVersion, type HarnessMessage, type OperationInput, type OperationName, type OperationOutput, type RunnerAnswer } from "../../schema/protocol.ts";
import type { ProtocolHandler } from "../transport.ts";
import { clientErrorClassifier, clientOps } from "./client-ops.ts";
import { ContractError, newSession, UnsupportedError, type DriverSession, type OpHandler, type OpHandlers } from "./driver.ts";
import { mcpErrorClassifier, toolkitOps } from "./toolkit-ops.ts";

const require = createRequire(import.meta.url);
const { version } = require("../../../package.json") as { version: string };

/** The reference's identity in the handshake: it declares every capability (knownCapabilities is the schema's enum). */
export function referenceImplementation(): Implementation {
  return { name: "toolnexus-reference", language: "typescript", package: "toolnexus-conformance/reference", version, capabilities: [...knownCapabilities] as Capability[] };
}

/** Every operation but session.reset, which the handler performs itself. */
const operations: OpHandlers<Exclude<OperationName, "session.reset">> = {
  async "runner.echo"(input) {
    return { value: input.value };
  },
  ...clientOps,
  ...toolkitOps,
};

/** The reference's errors as protocol errors: the contract's own, then each op family's typed errors, else `other`. */
function operationError(error: unknown): OperationError {
  // Unsupported is no error of the implementation's: it has no type, as from every runner.
  if (error instanceof UnsupportedError) return { kind: error.kind, message: error.message };
  if (error instanceof ContractError) return { kind: error.kind, type: error.type ?? error.name, message: error.message, ...(error.details ? { details: error.details } : {}) };
  const classified = clientErrorClassifier(error) ?? mcpErrorClassifier(error);
  if (classified) return classified;
  const err = error instanceof Error ? error : new Error(String(error));
  return { kind: "other", type: err.name, message: err.message };
}

function perform<K extends Exclude<OperationName, "session.reset">>(op: K, input: OperationInput<K>, session: DriverSession): Promise<OperationOutput<K>> {
  const handler: OpHandler<K> = operations[op];
  return handler(input, session);
}

async function runCleanups(session: DriverSession): Promise<void> {
  await Promise.allSettled(session.cleanups.splice(0).map((cleanup) => cleanup()));
}

export class ReferenceHandler implements ProtocolHandler {
  private session: DriverSession = newSession();

  async handle(message: HarnessMessage): Promise<RunnerAnswer> {
    if (message.type === "hello") {
      if (message.protocol !== protocolVersion) return { type: "hello", from: "runner", protocol: protocolVersion, error: `this runner speaks protocol ${protocolVersion}, not ${message.protocol}` };
      return { type: "hello", from: "runner", protocol: protocolVersion, implementation: referenceImplementation() };
    }
    try {
      return await this.request(message);
    } catch (error) {
      return { type: "crash", seq: message.seq, message: error instanceof Error ? (error.stack ?? error.message) : String(error) };
    }
  }

  private async request({ seq, op, input }: Request): Promise<RunnerAnswer> {
    if (op === "session.reset") {
      await this.reset();
      return { type: "result", seq, elapsedMs: 0, value: {} };
    }
    if (!isOperationName(op) || op === "session.reset") {
      return { type: "error", seq, elapsedMs: 0, error: operationError(new UnsupportedError(`the reference has no operation "${op}"`)) };
    }
    // The harness checks inputs before it sends them; one that does not fit here is the harness's bug.
    const validate = inputValidator(op);
    if (!validate(input)) throw new Error(`the input of ${op} does not fit runners/protocol/operations.schema.json: ${validate.errors?.[0]?.instancePath || "(top)"} ${validate.errors?.[0]?.message}`);
    const session = this.session;
    const started = performance.now();
    try {
      const value = await perform(op, input, session);
      // An output type is an interface, which TypeScript will not take for "any object".
      return { type: "result", seq, elapsedMs: performance.now() - started, value: value as Record<string, unknown> };
    } catch (error) {
      return { type: "error", seq, elapsedMs: performance.now() - started, error: operationError(error) };
    } finally {
      // Reset while this ran (the harness gave up on it): what it opened belongs to nobody now.
      if (session.closed) await runCleanups(session);
    }
  }

  /** session.reset: drop every handle, closing what they hold. */
  async reset(): Promise<void> {
    const session = this.session;
    session.closed = true;
    this.session = newSession();
    await runCleanups(session);
  }

  close(): Promise<void> {
    return this.reset();
  }
}
