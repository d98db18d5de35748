// runOnLanes: results in list order whatever the lanes and finishing order, at most one item per lane,
// exclusive items alone, heavier items started first, and a failing item stops the run once the
// others in flight are done.
import { describe, expect, it } from "vitest";
import { runOnLanes } from "../../../conformance/engine/lanes.ts";

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

interface Item {
  name: string;
  ms: number;
  exclusive?: boolean;
}

/** Runs items on lanes A..; records when each started, which lane, and how many were in flight. */
async function trace(items: Item[], laneCount: number, weight?: (item: Item) => number) {
  const lanes = Array.from({ length: laneCount }, (_, index) => String.fromCharCode(65 + index));
  const busy = new Set<string>();
  const started: string[] = [];
  const inFlightAtStart = new Map<string, number>();
  const emitted: [string, number][] = [];
  const results = await runOnLanes(
    items,
    lanes,
    async (item, lane) => {
      expect(busy.has(lane), `lane ${lane} given two items at once`).toBe(false);
      busy.add(lane);
      started.push(item.name);
      inFlightAtStart.set(item.name, busy.size);
      await sleep(item.ms);
      busy.delete(lane);
      return `${item.name} done`;
    },
    { exclusive: (item) => item.exclusive === true, weight, onInOrder: (result, index) => emitted.push([result, index]) },
  );
  return { results, started, inFlightAtStart, emitted };
}

describe("runOnLanes", () => {
  const items: Item[] = [
    { name: "slow", ms: 60 },
    { name: "fast1", ms: 5 },
    { name: "fast2", ms: 5 },
    { name: "medium", ms: 30 },
    { name: "fast3", ms: 5 },
  ];

  it("hands results back in list order, each once, though later items finish first", async () => {
    const { results, emitted, inFlightAtStart } = await trace(items, 3);
    expect(results).toEqual(items.map((item) => `${item.name} done`));
    expect(emitted).toEqual(items.map((item, index) => [`${item.name} done`, index]));
    expect(Math.max(...inFlightAtStart.values())).toBe(3);
  });

  it("runs one at a time, in list order, on one lane (today's --jobs 1)", async () => {
    const { started, inFlightAtStart } = await trace(items, 1);
    expect(started).toEqual(items.map((item) => item.name));
    expect([...inFlightAtStart.values()].every((count) => count === 1)).toBe(true);
  });

  it("runs exclusive items first, each with nothing else in flight, results still in list order", async () => {
    const withExclusive = [
      ...items.slice(0, 2),
      { name: "alone", ms: 20, exclusive: true },
      ...items.slice(2),
      { name: "alone too", ms: 10, exclusive: true },
    ];
    const { results, inFlightAtStart, started } = await trace(withExclusive, 3, (item) => item.ms);
    expect(started.slice(0, 2)).toEqual(["alone", "alone too"]);
    expect(inFlightAtStart.get("alone")).toBe(1);
    expect(inFlightAtStart.get("alone too")).toBe(1);
    expect(results).toEqual(withExclusive.map((item) => `${item.name} done`));
  });

  it("starts heavier items first, results still in list order", async () => {
    const { started, results } = await trace(items, 2, (item) => item.ms);
    expect(started.slice(0, 2)).toEqual(["slow", "medium"]);
    expect(results).toEqual(items.map((item) => `${item.name} done`));
  });

  it("rejects with the first error once the items in flight are done, starting no more", async () => {
    const started: string[] = [];
    const planted = new Error("planted: b broke");
    let finished = 0;
    const run = runOnLanes(["a", "b", "c", "d"], [1, 2], async (item) => {
      started.push(item);
      if (item === "b") throw planted;
      await sleep(20);
      finished++;
      return item;
    });
    // The very error the item threw (rejects.toThrow(text) would also pass a rejection with undefined).
    await expect(run).rejects.toBe(planted);
    expect(started).toEqual(["a", "b"]);
    expect(finished).toBe(1);
  });

  it("after an exclusive item fails, the next exclusive one and the rest never start", async () => {
    const started: string[] = [];
    const planted = new Error("planted: alone broke");
    const run = runOnLanes(
      ["first", "alone", "alone too", "last"],
      [1, 2],
      async (item) => {
        started.push(item);
        if (item === "alone") throw planted;
        return item;
      },
      { exclusive: (item) => item.startsWith("alone") },
    );
    await expect(run).rejects.toBe(planted);
    expect(started).toEqual(["alone"]);
  });

  it("keeps list order among items of equal weight (heaviest first otherwise), on one lane", async () => {
    const weights = new Map(Object.entries({ a: 1, b: 3, c: 1, d: 3, e: 0, f: 1 }));
    const { started } = await trace(
      [...weights.keys()].map((name) => ({ name, ms: 0 })),
      1,
      (item) => weights.get(item.name)!,
    );
    expect(started).toEqual(["b", "d", "a", "c", "f", "e"]);
  });

  it("no items: resolves to an empty list without calling work", async () => {
    const called: unknown[] = [];
    expect(await runOnLanes([], ["A"], async (item) => called.push(item))).toEqual([]);
    expect(called).toEqual([]);
  });

  it("refuses to run without a lane, saying so, rather than waiting forever for one", async () => {
    const error = await runOnLanes([], [], async () => 1).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(Error);
    expect((error as Error).message).toBe("runOnLanes needs at least one lane");
  });
});
