// Runs a list of items on a few lanes at once (a lane: one subject process, say) and hands back their
// results in list order, each as soon as every item before it is done, so what is printed and reported
// is the same whatever the number of lanes. Items may start in another order: exclusive ones first,
// one at a time, each alone (nothing else in flight; first, so no lane waits for the others to drain
// before one), then the rest heaviest first (so a long one found late does not end the run alone).

export interface LaneOptions<Item, Out> {
  /** Items that must run with nothing else in flight (e.g. a scenario that observes process-wide state). */
  exclusive?: (item: Item) => boolean;
  /** An estimate of an item's duration: items start heaviest first (ties in list order); default list order. */
  weight?: (item: Item) => number;
  /** Sees each result in list order, the moment the items before it are all done. */
  onInOrder?: (result: Out, index: number) => void;
}

export async function runOnLanes<Item, Lane, Out>(
  items: readonly Item[],
  lanes: readonly Lane[],
  work: (item: Item, lane: Lane) => Promise<Out>,
  options: LaneOptions<Item, Out> = {},
): Promise<Out[]> {
  if (!lanes.length) throw new Error("runOnLanes needs at least one lane");
  const results: Out[] = [];
  // done[i] is undefined until item i is done, and past the end, which stops the flush there.
  const done: boolean[] = [];
  let emitted = 0;
  const free = [...lanes];
  const waiting: ((lane: Lane) => void)[] = [];
  const inFlight = new Set<Promise<void>>();
  let failure: { error: unknown } | undefined;

  const flush = () => {
    for (; done[emitted]; emitted++) options.onInOrder?.(results[emitted], emitted);
  };
  const acquire = (): Promise<Lane> => (free.length ? Promise.resolve(free.shift()!) : new Promise((resolve) => waiting.push(resolve)));
  const release = (lane: Lane) => {
    const next = waiting.shift();
    if (next) next(lane);
    else free.push(lane);
  };
  const start = (index: number, lane: Lane) => {
    const running = work(items[index], lane).then(
      (result) => {
        results[index] = result;
        done[index] = true;
        flush();
      },
      (error: unknown) => void (failure ??= { error }),
    );
    const tracked = running.finally(() => {
      inFlight.delete(tracked);
      release(lane);
    });
    inFlight.add(tracked);
  };

  const weights = items.map((item) => options.weight?.(item) ?? 0);
  const alone = items.map((item) => options.exclusive?.(item) === true);
  // Array.prototype.sort is stable, so ties keep list order.
  const startOrder = items.map((_, index) => index).sort((a, b) => Number(alone[b]) - Number(alone[a]) || weights[b] - weights[a]);
  // After a failure nothing more starts: each branch checks once its own wait is over.
  for (const index of startOrder) {
    if (alone[index]) {
      await Promise.all(inFlight);
      if (failure) break;
      // Every lane is free now; the first one runs it, and the loop waits for it.
      start(index, await acquire());
      await Promise.all(inFlight);
    } else {
      const lane = await acquire();
      if (failure) {
        release(lane);
        break;
      }
      start(index, lane);
    }
  }
  await Promise.all(inFlight);
  if (failure) throw failure.error;
  return results;
}
