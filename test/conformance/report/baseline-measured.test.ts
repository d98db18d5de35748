// A `strict: false` baseline entry excuses a port's varying outcome, so it must be backed by a
// measurement: its reason quotes the rate and the conformance run command that measured it. Loading a
// baseline refuses one that does not, naming the file and the line. The whole file says which run it
// agrees with (measured) or why none has measured it yet (notMeasured): test/runners/baselines.test.ts
// holds every baseline shipped under runners/ to that.
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { loadBaseline, unbackedNonStrict } from "../../../conformance/report/baseline.ts";

describe("a strict: false entry quotes its measured rate and command", () => {
  it("accepts a rate of a varying outcome with the command", () => {
    expect(unbackedNonStrict("a race; flaky 1/6 by `conformance run --runner python --repeat 6 --filter x`")).toBeUndefined();
    expect(unbackedNonStrict("failed in 1 of 6 runs of `npm run conformance -- run --runner go --source DIR`")).toBeUndefined();
    expect(unbackedNonStrict("held in 2 of 6 runs (`npm run conformance -- run --runner java --source DIR`)")).toBeUndefined();
    // Spacing and many-digit counts as people write them; "run" and "runs".
    const command = "`conformance run --repeat 20`";
    for (const rate of [
      "flaky  1/6",
      "failed in  1 of 6",
      "flaky 12/20",
      "flaky 1 / 6",
      "1 of  12 runs",
      "10 / 20 runs",
      "1 of 6  runs",
      "1 of 2 run",
      "1/6 runs",
    ])
      expect(unbackedNonStrict(`${rate} by ${command}`), rate).toBeUndefined();
  });

  it("refuses no rate, a rate that did not vary, a file:line range taken for a rate, or no command", () => {
    expect(unbackedNonStrict("timing-dependent, seen both ways")).toMatch(/no measured rate .* and no `conformance run \.\.\.` command/);
    expect(unbackedNonStrict("passed 6/6 by `conformance run --repeat 6`")).toMatch(/no rate of a varying outcome/);
    expect(unbackedNonStrict("failed 0/6 by `conformance run --repeat 6`")).toMatch(/no rate of a varying outcome/);
    expect(unbackedNonStrict("two timers race (client.py:2172/2198), see `conformance run --repeat 6`")).toMatch(/no measured rate/);
    expect(unbackedNonStrict("failed in 1 of 6 runs")).toMatch(/no `conformance run \.\.\.` command/);
    expect(unbackedNonStrict("failed in 1 of 6 runs, `pytest -x`")).toMatch(/no `conformance run \.\.\.` command/);
    expect(unbackedNonStrict("failed in 1 of 6 runs, `npm run flaky-test`")).toMatch(/no `conformance run \.\.\.` command/);
    expect(unbackedNonStrict("failed in 1 of 6 runs, `conformance list`")).toMatch(/no `conformance run \.\.\.` command/);
  });

  it("loading a baseline with an unbacked strict: false entry fails, naming the file, the strict line and the fix", async () => {
    const dir = await mkdtemp(join(tmpdir(), "tnc-baseline-measured-"));
    const file = join(dir, "expected-failures.yaml");
    const entry = (reason: string) =>
      `subject: py\nentries:\n  - scenario: a/b\n    status: fail\n    checks: [step 1 (toolkit.list) /value]\n    strict: false\n    clause: x\n    classification: port-bug\n    reason: ${reason}\n`;
    try {
      await writeFile(file, entry("timing-dependent, seen both ways"));
      await expect(loadBaseline(file)).rejects.toThrow(`${file}:6: "a/b" is strict: false, but its reason quotes no measured rate`);
      await expect(loadBaseline(file)).rejects.toThrow("--repeat 6 --filter 'a/b'");
      await writeFile(file, entry("'a race: flaky 2/6 by `conformance run --runner py --repeat 6 --filter a/b`'"));
      expect((await loadBaseline(file)).get("a/b")?.strict).toBe(false);
      // A strict entry needs no measurement.
      await writeFile(file, entry("timing-dependent, seen both ways").replace("    strict: false\n", ""));
      expect((await loadBaseline(file)).get("a/b")?.strict).toBeUndefined();
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it("a baseline says measured or notMeasured, not both, and a notMeasured one lists nothing: refused at its line", async () => {
    const dir = await mkdtemp(join(tmpdir(), "tnc-baseline-measured-"));
    const file = join(dir, "expected-failures.yaml");
    const entry = "  - scenario: a/b\n    status: error\n    clause: x\n    classification: port-bug\n    reason: a reason long enough\n";
    try {
      await writeFile(
        file,
        "subject: py\nmeasured: {date: 2026-12-05, command: npm run conformance -- run}\nnotMeasured: not served here, said by pip\nentries: []\n",
      );
      await expect(loadBaseline(file)).rejects.toThrow(
        `${file}:1: invalid baseline at (top): says both measured and notMeasured: keep the one that holds`,
      );
      await writeFile(file, `subject: py\nnotMeasured: not served here, said by pip\nentries:\n${entry}`);
      await expect(loadBaseline(file)).rejects.toThrow(`${file}:2: says notMeasured but lists 1 entries`);
      await writeFile(file, "subject: py\nentries: []\nmeasure:\n  date: 2026-12-05\n");
      await expect(loadBaseline(file)).rejects.toThrow(
        `${file}:3: invalid baseline at (top): unknown key "measure" (expected one of: subject, package, measured, notMeasured, entries)`,
      );
      await writeFile(file, "subject: py\nmeasured: {date: 5 Dec, command: run}\nentries: []\n");
      await expect(loadBaseline(file)).rejects.toThrow(
        `${file}:2: invalid baseline at /measured/date: does not match ^[0-9]{4}-[0-9]{2}-[0-9]{2}$`,
      );
      await writeFile(file, `subject: py\nmeasured: {date: 2026-12-05, command: npm run conformance -- run}\nentries:\n${entry}`);
      expect([...(await loadBaseline(file)).keys()]).toEqual(["a/b"]);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
