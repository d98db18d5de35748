// The reference's side of runners/PROTOCOL.md: one protocol message in, its answer out (the handshake,
// a request performed from the operation table, session.reset). main.ts pipes stdin and stdout through
// it; the harness's in-process subject (conformance/subjects/reference/) calls it through an in-memory
// transport, so the two answer alike by construction.
import { createRequire } from "node:module";
import type { Capability, Implementation, Request } from "../protocol/protocol.types.ts";
import {
  inputValidator,
  isOperationName,
  knownCapabilities,
  protocolVersion,
  type HarnessMessage,
  type RunnerAnswer,
} from "../protocol/protocol.ts";
import { operationError, UnsupportedError } from "./errors.ts";
import { perform } from "./operations.ts";
import { newSession, runCleanups, type Session } from "./session.ts";

const require = createRequire(import.meta.url);
const { version } = require("../../package.json") as { version: string };

/** The reference's identity in the handshake: it declares every capability (knownCapabilities is the schema's enum). */
export function referenceImplementation(): Implementation {
  return {
    name: "toolnexus-reference",
    language: "typescript",
    package: "toolnexus-conformance/reference",
    version,
    capabilities: [...knownCapabilities] as Capability[],
  };
}

/**
 * One runner's state and answers. It fits conformance/subjects/transport.ts's ProtocolHandler by its
 * shape (the in-process subject hands it to an InMemoryTransport), so the runner imports nothing of
 * the subjects above it.
 */
export class ReferenceHandler {
  private session: Session = newSession();

  async handle(message: HarnessMessage): Promise<RunnerAnswer> {
    if (message.type === "hello") {
      if (message.protocol !== protocolVersion)
        return {
          type: "hello",
          from: "runner",
          protocol: protocolVersion,
          error: `this runner speaks protocol ${protocolVersion}, not ${message.protocol}`,
        };
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
    if (!validate(input))
      throw new Error(
        `the input of ${op} does not fit runners/protocol/operations.schema.json: ${validate.errors?.[0]?.instancePath || "(top)"} ${validate.errors?.[0]?.message}`,
      );
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
