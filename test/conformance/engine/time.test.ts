// Bounded waits (engine/time.ts): withTimeout resolves or rejects as its promise does, rejects with a
// TimeoutError naming what it waited for after the bound, and never leaves its timer behind.
import { afterEach, describe, expect, it, vi } from "vitest";
import { sleep, TimeoutError, withTimeout } from "../../../conformance/engine/time.ts";

describe("withTimeout", () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it("settles as the promise does, leaving no timer behind", async () => {
    vi.useFakeTimers();
    expect(await withTimeout(Promise.resolve("done"), 1_000, "the call")).toBe("done");
    expect(vi.getTimerCount()).toBe(0);
    const planted = new Error("planted: the call broke");
    await expect(withTimeout(Promise.reject(planted), 1_000, "the call")).rejects.toBe(planted);
    expect(vi.getTimerCount()).toBe(0);
  });

  it("rejects with a TimeoutError naming what it waited for and the bound, leaving no timer behind", async () => {
    vi.useFakeTimers();
    const outcome = withTimeout(new Promise(() => undefined), 1_000, "the call").catch((caught: unknown) => caught);
    await vi.advanceTimersByTimeAsync(999);
    expect(vi.getTimerCount()).toBe(1);
    await vi.advanceTimersByTimeAsync(1);
    const error = await outcome;
    expect(error).toBeInstanceOf(TimeoutError);
    expect((error as Error).message).toBe("the call did not finish within 1000 ms");
    expect(vi.getTimerCount()).toBe(0);
  });
});

describe("sleep", () => {
  it("resolves after the time given, not before", async () => {
    vi.useFakeTimers();
    try {
      let slept = false;
      const done = sleep(50).then(() => (slept = true));
      await vi.advanceTimersByTimeAsync(49);
      expect(slept).toBe(false);
      await vi.advanceTimersByTimeAsync(1);
      await done;
      expect(slept).toBe(true);
    } finally {
      vi.useRealTimers();
    }
  });
});
