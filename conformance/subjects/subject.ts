// The one interface the engine drives. An in-process reference and a subprocess runner both
// implement it; the operations and their data shapes are documented in runners/PROTOCOL.md.
import { createRequire } from "node:module";
import type { Build } from "../schema/report.types.ts";

/** Every capability a subject may declare, as the protocol schema defines them. */
export const knownCapabilities: readonly string[] = createRequire(import.meta.url)("../../runners/protocol/protocol.schema.json").$defs.capability.enum;

export interface SubjectInfo {
  /** Short name used in reports and baselines, e.g. "reference", "ts", "python", "go@source". */
  name: string;
  language: string;
  /** The implementation under test: package name and exact version. */
  package: string;
  version: string;
  /** Capability flags (see runners/PROTOCOL.md#capabilities); a scenario that requires one the subject lacks is skipped. */
  capabilities: string[];
  /** The releases a runner says it drives (handshake `implementation.supports`). */
  supports?: string;
  /** Exactly what ran: published package, source build (path + content hash), in-process, or a command. */
  build?: Build;
}

/** The typed error a subject reports when an operation fails the way the contract allows. */
export interface OperationError {
  /** One of the contract's error kinds (runners/PROTOCOL.md#error-kinds). */
  kind: string;
  /** The implementation's own error type, e.g. "context.Canceled", "httpx.HTTPStatusError". */
  type?: string;
  message: string;
  /** Kind-specific details, e.g. {status: 503, bodyExcerpt: "..."} for kind "http". */
  details?: Record<string, unknown>;
}

export type OperationOutcome =
  | { ok: true; value: unknown; elapsedMs: number }
  | { ok: false; error: OperationError; elapsedMs: number };

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
