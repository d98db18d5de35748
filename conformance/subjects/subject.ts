// The one interface the engine drives. An in-process reference and a subprocess runner both
// implement it; the operations and their data shapes are documented in runners/PROTOCOL.md.
import type { OperationError } from "../../runners/protocol/protocol.types.ts";
import type { ReportSubject } from "../schema/report.types.ts";

/**
 * Who a subject is: its handshake's implementation, its name in reports and baselines (e.g.
 * "reference", "ts", "python", "go@source"), and exactly what ran (`build`). The report's subject
 * entry without its availability.
 */
export type SubjectInfo = Omit<ReportSubject, "available" | "unavailableReason">;

/** The typed error a subject reports when an operation fails the way the contract allows (runners/PROTOCOL.md#error-kinds). */
export type { OperationError };

export type OperationOutcome = { ok: true; value: unknown; elapsedMs: number } | { ok: false; error: OperationError; elapsedMs: number };

export interface ExecuteOptions {
  /** The harness gives up on the operation after this long. */
  timeoutMs: number;
}

/** Raised by a subject when it (not the implementation under test) broke: a crash, garbage on the wire, a hang. */
export class SubjectBrokenError extends Error {
  constructor(
    message: string,
    readonly stderr?: string,
  ) {
    super(message);
    this.name = "SubjectBrokenError";
  }
}

export interface Subject {
  readonly info: SubjectInfo;
  /** Perform one operation. Resolves with the outcome; rejects only with SubjectBrokenError. */
  execute(op: string, input: Record<string, unknown>, options: ExecuteOptions): Promise<OperationOutcome>;
  /** Drop every handle (clients, toolkits) created since the last reset, closing what they hold. */
  reset(options: ExecuteOptions): Promise<void>;
  /** What the subject wrote to stderr since the last call (runners only), to attach to failures. */
  drainStderr?(): string;
  /** What the runner said it substituted since the last call (its answers' `notes`), each once. */
  drainNotes?(): string[];
  close(): Promise<void>;
}
