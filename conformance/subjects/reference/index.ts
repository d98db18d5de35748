// The in-process subject: the reference implementation, driven through the same operations a runner
// speaks, without a process boundary.
import { createRequire } from "node:module";
import { knownCapabilities, type OperationError, type Subject, type SubjectInfo } from "../subject.ts";
import { clientErrorClassifier, clientOps } from "./client-ops.ts";
import { newSession, perform, UnsupportedError, type DriverSession, type ErrorClassifier, type OpHandler } from "./driver.ts";
import { mcpErrorClassifier, toolkitOps } from "./toolkit-ops.ts";

const require = createRequire(import.meta.url);
const { version } = require("../../../package.json") as { version: string };

/** Each op family maps its own typed errors to protocol error kinds. */
const classifiers: ErrorClassifier[] = [clientErrorClassifier, mcpErrorClassifier];

const classify: ErrorClassifier = (error) => {
  for (const classifier of classifiers) {
    const found: OperationError | undefined = classifier(error);
    if (found) return found;
  }
  return undefined;
};

export function referenceOperations(): Record<string, OpHandler> {
  return {
    async "runner.echo"(input) {
      return { value: input.value };
    },
    ...clientOps,
    ...toolkitOps,
  };
}

/** The reference's identity, shared by the in-process subject and the `ts` runner's handshake. */
export function referenceInfo(name: string): SubjectInfo {
  return { name, language: "typescript", package: "toolnexus-conformance/reference", version, capabilities: [...knownCapabilities], build: { mode: "in-process" } };
}

async function runCleanups(session: DriverSession): Promise<void> {
  await Promise.allSettled(session.cleanups.splice(0).map((cleanup) => cleanup()));
}

/** Drives the reference for one sequence of operations; `session.reset` closes what they opened. */
export class ReferenceDriver {
  private session: DriverSession = newSession();
  private readonly operations = referenceOperations();

  async execute(op: string, input: Record<string, unknown>) {
    if (op === "session.reset") {
      await this.reset();
      return { ok: true as const, value: {}, elapsedMs: 0 };
    }
    const handler = this.operations[op];
    if (!handler) throw new UnsupportedError(`the reference has no operation "${op}"`);
    const session = this.session;
    const outcome = await perform(handler, input, session, classify);
    // Reset while this ran (the harness timed it out): what it opened belongs to nobody now.
    if (session.closed) await runCleanups(session);
    return outcome;
  }

  async reset(): Promise<void> {
    const session = this.session;
    session.closed = true;
    this.session = newSession();
    await runCleanups(session);
  }
}

export function createReferenceSubject(name = "reference"): Subject {
  const driver = new ReferenceDriver();
  return {
    info: referenceInfo(name),
    async execute(op, input) {
      try {
        return await driver.execute(op, input);
      } catch (error) {
        if (error instanceof UnsupportedError) {
          return { ok: false, elapsedMs: 0, error: { kind: "other", type: "unsupported", message: error.message } };
        }
        throw error;
      }
    },
    reset: () => driver.reset(),
    close: () => driver.reset(),
  };
}
