// What carries protocol messages between the harness's one protocol client and an implementation's
// protocol handler: a child process's pipes (child-process-transport.ts) or a function call (below).
// A transport moves messages and reports a peer that broke; the protocol itself (handshake, seq,
// answer checks) is the client's (protocol-client.ts).
import type { HarnessMessage, RunnerAnswer } from "../../runners/protocol/protocol.ts";
import { SubjectBrokenError } from "./subject.ts";

export interface Transport {
  /**
   * Send one message and resolve with the next one the peer sends, parsed but not yet checked against
   * the protocol. Rejects with SubjectBrokenError when the peer breaks (exits, writes what is not JSON,
   * does not answer within `timeoutMs`); the transport is then dead.
   */
  exchange(message: HarnessMessage, timeoutMs: number, what: string): Promise<unknown>;
  readonly alive: boolean;
  /** The peer broke the protocol (an answer that does not fit, a wrong seq): end it, and return the error to raise. */
  fail(reason: string): SubjectBrokenError;
  /** What the peer wrote to stderr and nobody drained yet, left in place. */
  readonly stderr: string;
  /** What the peer wrote to stderr since the last call. */
  drainStderr(): string;
  /** Tell the peer to stop; resolves true when it stopped by itself (else it was ended). */
  close(graceMs?: number): Promise<boolean>;
}

/** An implementation's side of the protocol: one answer per message. */
export interface ProtocolHandler {
  handle(message: HarnessMessage): Promise<RunnerAnswer>;
  /** Close what the handler holds (the peer's stdin closed). */
  close(): Promise<void>;
}

/**
 * A handler in this process. Messages go through JSON both ways, as on a pipe, so what the client
 * receives is what a runner would have written. No timeout of its own: the engine bounds each step,
 * and a handler cannot be killed.
 */
export class InMemoryTransport implements Transport {
  private closed = false;
  readonly stderr = "";

  constructor(private readonly handler: ProtocolHandler) {}

  get alive(): boolean {
    return !this.closed;
  }

  async exchange(message: HarnessMessage): Promise<unknown> {
    if (this.closed) throw new SubjectBrokenError("the in-memory transport is closed");
    const answer = await this.handler.handle(JSON.parse(JSON.stringify(message)));
    return JSON.parse(JSON.stringify(answer));
  }

  fail(reason: string): SubjectBrokenError {
    return new SubjectBrokenError(reason);
  }

  drainStderr(): string {
    return "";
  }

  async close(): Promise<boolean> {
    this.closed = true;
    await this.handler.close();
    return true;
  }
}
