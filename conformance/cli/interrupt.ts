// An interrupted run (Ctrl-C, a CI job cancelled with SIGTERM) cleans up what it created before it
// dies: the scenarios' temporary folders, and the process groups of runners and installers (started
// in groups of their own, they do not get the terminal's Ctrl-C). Then it dies of the signal as it
// would have, so the caller sees the usual status (130 for SIGINT, 143 for SIGTERM).
import { removeLiveTempDirs } from "../engine/temp-dirs.ts";
import { killLiveProcessGroups } from "../subjects/process-group.ts";

let installed = false;

function cleanUp(): void {
  killLiveProcessGroups();
  removeLiveTempDirs();
}

export function cleanUpOnInterrupt(): void {
  if (installed) return;
  installed = true;
  // Also on a normal or crashing exit: the safety net for whatever an owner did not get to remove.
  process.once("exit", cleanUp);
  for (const signal of ["SIGINT", "SIGTERM", "SIGHUP"] as const) {
    process.once(signal, () => {
      cleanUp();
      // The handler was the only listener: with it gone, the signal's default action ends the process.
      process.kill(process.pid, signal);
    });
  }
}
