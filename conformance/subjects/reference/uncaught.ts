// An error the reference throws outside every operation's promise (in a node:http callback, a timer)
// ends the `ts` runner's process, which the harness reports as a crash; in process, nothing would notice
// it and the scenario could pass. While an in-process subject is open, such errors are collected here and
// handed to it, so the two subjects fail alike. One listener pair serves every open subject.
// Several subjects run side by side (`run --jobs N`): an error goes to the subject whose operation
// started the callback that threw (the async context Node keeps through timers, sockets and promises,
// which the listeners still see); one no operation started (a fixture's, the harness's) goes to all.
import { AsyncLocalStorage } from "node:async_hooks";

type Sink = (error: unknown) => void;

const sinks = new Set<Sink>();
const owner = new AsyncLocalStorage<Sink>();
const deliver = (error: unknown) => {
  const own = owner.getStore();
  if (own && sinks.has(own)) return own(error);
  for (const sink of sinks) sink(error);
};

export interface UncaughtWatch {
  /** The oldest error not yet taken, if any. */
  take(): unknown;
  /** Runs an operation of this subject: what its callbacks throw later comes to this watch alone. */
  within<T>(operation: () => Promise<T>): Promise<T>;
  stop(): void;
}

export function watchUncaught(): UncaughtWatch {
  const seen: unknown[] = [];
  const sink: Sink = (error) => void seen.push(error);
  if (sinks.size === 0) {
    process.on("uncaughtException", deliver);
    process.on("unhandledRejection", deliver);
  }
  sinks.add(sink);
  return {
    take: () => seen.shift(),
    within: (operation) => owner.run(sink, operation),
    stop() {
      if (!sinks.delete(sink) || sinks.size > 0) return;
      process.off("uncaughtException", deliver);
      process.off("unhandledRejection", deliver);
    },
  };
}

export function describeUncaught(error: unknown): string {
  return error instanceof Error ? (error.stack ?? `${error.name}: ${error.message}`) : String(error);
}
