// An interrupted run (Ctrl-C, a CI job cancelled with SIGTERM) cleans up what it created before it
// dies: the scenarios' temporary folders, and the process groups of runners and installers (started
// in groups of their own, they do not get the terminal's Ctrl-C). Then it dies of the signal as it
// would have, so the caller sees the usual status (130 for SIGINT, 143 for SIGTERM).

let installed = false;
/** Servers to close (bounded) before the process dies of the signal: the capture proxy's listener and sockets. */
const closers = new Set<() => Promise<void>>();

/** Run `close` on Ctrl-C / SIGTERM before dying; returns the undo. A second signal ends the process at once. */
export function closeOnInterrupt(close: () => Promise<void>): () => void {
  closers.add(close);
  return () => closers.delete(close);
}

/** Install `cleanUp` (what the layers above registered as live: temp folders, process groups) on exit and on the signals. */
export function cleanUpOnInterrupt(cleanUp: () => void): void {
  if (installed) return;
  installed = true;
  // Also on a normal or crashing exit: the safety net for whatever an owner did not get to remove.
  process.once("exit", cleanUp);
  for (const signal of ["SIGINT", "SIGTERM", "SIGHUP"] as const) {
    process.once(signal, () => {
      cleanUp();
      // The handler was the only listener: with it gone, the signal's default action ends the process.
      const die = () => process.kill(process.pid, signal);
      if (!closers.size) return die();
      // Each closer is bounded; this guard bounds them all the same.
      const guard = setTimeout(die, 5000);
      void Promise.all([...closers].map((close) => close().catch(() => undefined))).then(() => {
        clearTimeout(guard);
        die();
      });
    });
  }
}
