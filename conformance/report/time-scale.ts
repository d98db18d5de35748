// How a report says the time scale its scenarios ran at (conformance/scenario/time-scale.ts): the
// console at the start of a run, the Markdown matrix and the step summary under their headings.
import type { TimeScale } from "../schema/report.types.ts";

/** One line saying the scale a run uses and why (a report has none at 1). */
export function describeTimeScale(timeScale: TimeScale): string {
  const why =
    timeScale.chosenBy === "auto"
      ? ` (auto: the CPU was shared ${timeScale.cpuContention}-fold as the run started; --time-scale 1 runs the files' own times)`
      : "";
  return `time scale ${timeScale.scale}${why}: every delay, timeout and time bound of each scenario is ${timeScale.scale} times its file's, but in scenarios with fixedTimes`;
}
