// An error the reference throws outside every operation's promise (in a node:http callback, a timer)
// ends the `ts` runner's process, which the harness reports as a crash; in process, nothing would notice
// it and the scenario could pass. While an in-process subject is open, such errors are collected here and
// handed to it, so the two subjects fail alike. One listener pair serves every open subject.
type Sink = (error: unknown) => void;

const sinks = new Set<Sink>();
const deliver = (error: unknown) => {
  for (const sink of sinks) sink(error);
};

export interface UncaughtWatch {
  /** The oldest error not yet taken, if any. */
  take(): unknown;
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
