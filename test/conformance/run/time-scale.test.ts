// run --time-scale end to end: the scale reaches the subject (its waits take N times as long), the
// report and the Matrix say it, and auto chooses 1 unless the CPU is shared.
import { mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { chooseTimeScale, scaleForContention } from "../../../conformance/run/time-scale-choice.ts";
import { describeTimeScale } from "../../../conformance/report/time-scale.ts";
import type { Report } from "../../../conformance/schema/report.types.ts";
import { runCli } from "../helpers.ts";

describe("choosing a time scale", () => {
  it("maps a measured CPU contention to one step of scale per 2, within 1 and 10", () => {
    expect([0.4, 1, 1.3, 2, 2.1, 4, 4.5, 6, 25].map(scaleForContention)).toEqual([1, 1, 1, 1, 2, 2, 3, 3, 10]);
  });

  it("takes a given scale as given, and says nothing at 1", async () => {
    expect(await chooseTimeScale(3)).toEqual({ scale: 3, chosenBy: "--time-scale" });
    // At 1 there is no scale to say: nothing for the report, so no line.
    expect(await chooseTimeScale(1)).toBeUndefined();
    expect(describeTimeScale({ scale: 4, chosenBy: "auto", cpuContention: 3.62 })).toBe(
      "time scale 4 (auto: the CPU was shared 3.62-fold as the run started; --time-scale 1 runs the files' own times): " +
        "every delay, timeout and time bound of each scenario is 4 times its file's, but in scenarios with fixedTimes",
    );
  });
});

describe("run --time-scale", () => {
  let dir: string;
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), "tnc-time-scale-"));
  });
  afterAll(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it("stretches what the subject waits (a 400 + 800 ms backoff takes at least 2400 ms at 2) and says so in every report", async () => {
    const json = join(dir, "scaled.json");
    const matrix = join(dir, "scaled.md");
    const outcome = await runCli(
      ["run", "--time-scale", "2", "--filter", "client/retry/backoff-doubles[openai-run]", "--json", json, "--matrix", matrix],
      60_000,
    );
    expect(outcome.code, outcome.stderr).toBe(0);
    expect(outcome.stdout).toContain("time scale 2: every delay, timeout and time bound of each scenario is 2 times its file's");
    const report = JSON.parse(await readFile(json, "utf8")) as Report;
    expect(report.timeScale).toEqual({ scale: 2, chosenBy: "--time-scale" });
    expect(report.results.map((result) => [result.scenario, result.status])).toEqual([
      ["client/retry/backoff-doubles[openai-run]", "pass"],
    ]);
    // A sleep is never shorter than asked: the doubled backoff is in the scenario's own duration.
    expect(report.results[0].durationMs).toBeGreaterThanOrEqual(2400);
    expect(await readFile(matrix, "utf8")).toContain("time scale 2: every delay");
  });

  it("at --time-scale 1 the report is as it always was: no timeScale, no line", async () => {
    const json = join(dir, "plain.json");
    const outcome = await runCli(["run", "--time-scale", "1", "--filter", "client/retry/after-zero[openai-run]", "--json", json]);
    expect(outcome.code, outcome.stderr).toBe(0);
    expect(outcome.stdout).not.toContain("time scale");
    expect((JSON.parse(await readFile(json, "utf8")) as Report).timeScale).toBeUndefined();
  });

  it("refuses what is no whole number from 1 to 10, or auto, before anything runs", async () => {
    for (const bad of ["1.5", "0", "11", "fast"]) {
      const outcome = await runCli(["run", "--time-scale", bad]);
      expect(outcome.code).toBe(2);
      expect(outcome.stderr).toContain(
        `option '--time-scale <n>' argument '${bad}' is invalid. expected a whole number from 1 to 10 (every time value of a scenario is multiplied by it), or auto`,
      );
    }
  });
});
