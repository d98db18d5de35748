// What every measurement module gets: the options, the runners (available or not), a progress log.
import type { BenchOptions } from "../lib/options.ts";
import type { RunnerChoice } from "../lib/runners.ts";
import type { Row } from "../lib/table.ts";

export interface BenchContext {
  options: BenchOptions;
  runners: RunnerChoice[];
  log: (line: string) => void;
}

export type Measurement = (context: BenchContext) => Promise<Row[]>;

/** The in-process reference's name in the table. */
export const inProcess = "in-process";

/** Rows saying a runner could not be measured, one per figure. */
export function unavailableRows(
  group: string,
  figures: { figure: string; unit: string }[],
  runner: { name: string; reason: string },
): Row[] {
  return figures.map(({ figure, unit }) => ({ group, figure, unit, subject: runner.name, unavailable: runner.reason }));
}
