// The time scale a run uses: the one given (`--time-scale N`), or, by default (`auto`), one chosen
// from how contended the CPU is as the run starts (common/cpu-contention.ts). A quiet machine gets 1,
// the files' own times, at full strength; a machine busy with other work gets its scenarios in slow
// motion, as many times slower as its CPU is shared, said in the report. How that mapping was decided
// (what each scale measured beside six CPU-bound processes) is in conformance/README.md, "Time scale".
import { measureCpuContention } from "../common/cpu-contention.ts";
import type { TimeScale } from "../schema/report.types.ts";
import { maxTimeScale } from "../scenario/time-scale.ts";

export type TimeScaleOption = number | "auto";

/**
 * Contention each step of the scale covers: the suite passed 5 runs of 5 at scale 2 beside six
 * CPU-bound processes in its session, where the contention measured about 4, and at scale 1 beside
 * two (conformance/README.md, "Time scale").
 */
const contentionPerStep = 2;

/** The scale for a measured contention: one step per `contentionPerStep`, within 1 and the largest allowed. */
export const scaleForContention = (contention: number) => Math.min(maxTimeScale, Math.max(1, Math.ceil(contention / contentionPerStep)));

/** The scale to run at and how it was chosen (the report's `timeScale`); undefined at 1, the files' own times. */
export async function chooseTimeScale(option: TimeScaleOption): Promise<TimeScale | undefined> {
  if (option !== "auto") return option === 1 ? undefined : { scale: option, chosenBy: "--time-scale" };
  const cpuContention = Math.round((await measureCpuContention()) * 100) / 100;
  const scale = scaleForContention(cpuContention);
  return scale === 1 ? undefined : { scale, chosenBy: "auto", cpuContention };
}
