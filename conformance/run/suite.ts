// Runs a list of expanded scenarios against one subject, judging each against the subject's baseline
// as it finishes (report/ judges; the engine only runs). Given several lanes of
// the subject (one process each, conformance/subjects/pool.ts), scenarios run that many at a time;
// results come back, and onResult sees them, in list order whatever the number of lanes. With
// `repeat` N, each scenario runs N times (the runs may share the lanes) and its runs are folded into
// one result (repeat.ts) as soon as they are all done.
import type { Entry } from "../schema/baseline.types.ts";
import type { Result, TimeScale } from "../schema/report.types.ts";
import type { ExpandedScenario } from "../scenario/expand.ts";
import type { Subject } from "../subjects/subject.ts";
import { defaultFixtureTimeouts, runScenario, type RunOptions } from "../engine/run.ts";
import { scaleScenarioTimes, type TimeKeys } from "../scenario/time-scale.ts";
import { runOnLanes } from "../engine/lanes.ts";
import { runsAlone, waitWeight } from "../engine/schedule.ts";
import { judge } from "../report/baseline.ts";
import { foldRuns } from "../report/repeat.ts";
import { capResult } from "../report/value-cap.ts";

export interface SuiteOptions extends RunOptions {
  baseline?: Map<string, Entry>;
  onResult?: (result: Result) => void;
  /** How many times each scenario runs (default 1). */
  repeat?: number;
  /** Expected duration of a scenario, so lanes start the longest first (report/durations.ts); default: the timeouts its steps declare. */
  weight?: (scenario: ExpandedScenario) => number;
  /** Every time value of each scenario, and the fixtures' start and stop bounds, multiplied by the chosen scale (scenario/time-scale.ts). */
  timeScale?: RunTimeScale;
}

/** A time scale other than 1 as chosen (run/time-scale-choice.ts, what the report says), and the suite's time keys. */
export interface RunTimeScale {
  chosen: TimeScale;
  keys: TimeKeys;
}

/** The scenarios and run options at the options' time scale: a fixture's start and stop are waits of the scenario too. */
function atTimeScale(scenarios: ExpandedScenario[], options: SuiteOptions): { scenarios: ExpandedScenario[]; options: SuiteOptions } {
  if (!options.timeScale) return { scenarios, options };
  const { chosen, keys } = options.timeScale;
  const scale = chosen.scale;
  const base = options.fixtureTimeouts ?? defaultFixtureTimeouts;
  return {
    scenarios: scenarios.map((scenario) => scaleScenarioTimes(scenario, scale, keys)),
    options: { ...options, fixtureTimeouts: { startMs: base.startMs * scale, stopMs: base.stopMs * scale } },
  };
}

export async function runSuite(selected: ExpandedScenario[], lanes: Subject | readonly Subject[], given: SuiteOptions): Promise<Result[]> {
  const { scenarios, options } = atTimeScale(selected, given);
  const subjects = Array.isArray(lanes) ? lanes : [lanes as Subject];
  const repeat = options.repeat ?? 1;
  if (!Number.isInteger(repeat) || repeat < 1) throw new Error(`repeat must be a whole number >= 1, not ${repeat}`);
  // Scenario-major: the runs of scenario i are items i*repeat .. i*repeat+repeat-1, so list order is scenario order.
  const items = scenarios.flatMap((scenario) => new Array<ExpandedScenario>(repeat).fill(scenario));
  const folded: Result[] = [];
  let current: Result[] = [];
  await runOnLanes(
    items,
    subjects,
    // Capped as the report will store it: one huge value must not weigh on memory or the reports.
    async (scenario, subject) => judge(capResult(await runScenario(scenario, subject, options)), options.baseline ?? new Map()),
    {
      exclusive: runsAlone,
      weight: subjects.length > 1 ? (options.weight ?? waitWeight) : undefined,
      // In list order: a scenario's runs arrive one after another, its last one completing the group.
      onInOrder: (run) => {
        current.push(run);
        if (current.length < repeat) return;
        const result = foldRuns(current);
        current = [];
        folded.push(result);
        options.onResult?.(result);
      },
    },
  );
  return folded;
}
