// The in-process subject: the `ts` runner's protocol handler (runners/ts/handler.ts, the very one its
// process pipes), spoken to by the harness's protocol client through an in-memory transport.
import { ProtocolClient } from "../protocol-client.ts";
import { SubjectBrokenError, type Subject, type SubjectInfo } from "../subject.ts";
import { InMemoryTransport } from "../transport.ts";
import { ReferenceHandler, referenceImplementation } from "../../../runners/ts/handler.ts";
import { describeUncaught, watchUncaught } from "./uncaught.ts";

/** The in-process reference's identity: the handshake's, under the subject's own name. */
export function referenceInfo(name: string): SubjectInfo {
  return { ...referenceImplementation(), name, build: { mode: "in-process" } };
}

export function createReferenceSubject(name = "reference"): Subject {
  const transport = new InMemoryTransport(new ReferenceHandler());
  const client = new ProtocolClient(transport);
  const uncaught = watchUncaught();
  let handshake: Promise<unknown> | undefined;
  // What would have ended the ts runner's process ends this subject the same way (uncaught.ts).
  const throwIfUncaught = (op: string) => {
    const error = uncaught.take();
    if (error !== undefined)
      throw new SubjectBrokenError(
        `the reference threw outside any operation (uncaught, by ${op} or before it; the ts runner's process would have ended): ${describeUncaught(error)}`,
      );
  };
  const request = async (op: string, input: Record<string, unknown>, timeoutMs: number) => {
    await (handshake ??= uncaught.within(() => client.handshake(timeoutMs)));
    const outcome = await uncaught.within(() => client.request(op, input, timeoutMs));
    throwIfUncaught(op);
    return outcome;
  };
  return {
    info: referenceInfo(name),
    execute: (op, input, options) => request(op, input, options.timeoutMs),
    async reset(options) {
      const outcome = await request("session.reset", {}, options.timeoutMs);
      if (!outcome.ok) throw new SubjectBrokenError(`session.reset failed: ${outcome.error.message}`);
    },
    async close() {
      uncaught.stop();
      await transport.close();
    },
  };
}
