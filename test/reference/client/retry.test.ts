// Retries: which statuses, how many attempts, Retry-After, network errors, and cancellation.
import { describe, expect, it } from "vitest";
import { LLMCancelledError, LLMHttpError, LLMNetworkError, retryAfterMs } from "../../../reference/index.ts";
import { clientFor, mockUpstream } from "./helpers.ts";

describe("retries", () => {
  it("retries 429 and 5xx up to retries+1 attempts, then succeeds", async () => {
    const { mock, requests } = await mockUpstream([{ status: 429 }, { status: 502 }, { text: "ok" }]);
    const { client } = clientFor(mock, { retries: 2 });
    expect((await client.run("hi")).text).toBe("ok");
    expect(await requests()).toHaveLength(3);
  });

  it("gives up after retries+1 attempts with the last status and body excerpt", async () => {
    const { mock, requests } = await mockUpstream([{ status: 500, body: "first" }, { status: 503, body: "last words" }, { text: "never" }]);
    const { client } = clientFor(mock, { retries: 1, style: "anthropic" });
    const error = await client.run("hi").catch((e: unknown) => e);
    expect(error).toBeInstanceOf(LLMHttpError);
    expect(error).toMatchObject({ status: 503, bodyExcerpt: "last words" });
    expect(await requests()).toHaveLength(2);
  });

  it("does not retry a 4xx other than 429", async () => {
    const { mock, requests } = await mockUpstream([{ status: 404 }, { text: "never" }]);
    const { client } = clientFor(mock, { retries: 3 });
    await expect(client.run("hi")).rejects.toMatchObject({ status: 404 });
    expect(await requests()).toHaveLength(1);
  });

  it("honours Retry-After over the backoff", async () => {
    const { mock } = await mockUpstream([{ status: 429, retryAfter: 0 }, { text: "ok" }]);
    const { client } = clientFor(mock, { retries: 1, retryBaseMs: 20_000 });
    const started = performance.now();
    await client.run("hi");
    expect(performance.now() - started).toBeLessThan(5_000);
  });

  it("does not sleep a Retry-After longer than timeoutMs: fails at once with the status", async () => {
    const { mock, requests } = await mockUpstream([{ status: 429, retryAfter: 86_400 }, { text: "never" }]);
    const { client } = clientFor(mock, { retries: 2, retryBaseMs: 1, timeoutMs: 2_000 });
    const started = performance.now();
    await expect(client.run("hi")).rejects.toMatchObject({ status: 429 });
    expect(performance.now() - started).toBeLessThan(1_000);
    expect(await requests()).toHaveLength(1);
  });

  it("bounds the whole call by timeoutMs: attempts that each fit but together outlast it fail as a timeout", async () => {
    const { mock, requests } = await mockUpstream([
      { status: 503, delayMs: 300 },
      { text: "too late", delayMs: 300 },
    ]);
    const { client } = clientFor(mock, { retries: 1, timeoutMs: 450 });
    const error = await client.run("hi").catch((e: unknown) => e);
    expect(error).toBeInstanceOf(LLMCancelledError);
    expect(error).toMatchObject({ reason: "timeout" });
    expect(await requests()).toHaveLength(2);
  });

  it("bounds the whole call by timeoutMs across the turns of a tool loop too", async () => {
    const { mock, requests } = await mockUpstream([
      { toolCalls: [{ id: "c1", name: "missing", args: {} }], delayMs: 300 },
      { text: "too late", delayMs: 300 },
    ]);
    const { client } = clientFor(mock, { retries: 0, timeoutMs: 450 });
    await expect(client.run("hi")).rejects.toMatchObject({ reason: "timeout" });
    expect(await requests()).toHaveLength(2);
  });

  it("does not sleep a backoff that would outlast timeoutMs either", async () => {
    let calls = 0;
    const failing = async () => {
      calls++;
      throw new TypeError("fetch failed");
    };
    const { mock } = await mockUpstream([]);
    const { client } = clientFor(mock, { retries: 2, retryBaseMs: 60_000, timeoutMs: 1_000, fetch: failing });
    const started = performance.now();
    await expect(client.run("hi")).rejects.toBeInstanceOf(LLMNetworkError);
    expect(performance.now() - started).toBeLessThan(1_000);
    expect(calls).toBe(1);
  });

  it("parses Retry-After delay-seconds and falls back on anything else (SPEC decision 23)", () => {
    expect(retryAfterMs("2")).toBe(2000);
    expect(retryAfterMs(" 0 ")).toBe(0);
    expect(retryAfterMs("0.25")).toBeUndefined();
    expect(retryAfterMs("-1")).toBeUndefined();
    expect(retryAfterMs("+3")).toBeUndefined();
    expect(retryAfterMs("Wed, 21 Oct 2015 07:28:00 GMT")).toBeUndefined();
    expect(retryAfterMs(null)).toBeUndefined();
  });

  it("retries network errors through the injected fetch, then reports them", async () => {
    let calls = 0;
    const failing = async () => {
      calls++;
      throw new TypeError("fetch failed");
    };
    const { mock } = await mockUpstream([]);
    const { client } = clientFor(mock, { retries: 2, fetch: failing });
    await expect(client.run("hi")).rejects.toBeInstanceOf(LLMNetworkError);
    expect(calls).toBe(3);
  });

  it("never retries an abort, even one that lands during the backoff", async () => {
    const { mock, requests } = await mockUpstream([{ status: 503 }, { text: "never" }]);
    const { client } = clientFor(mock, { retries: 3, retryBaseMs: 10_000 });
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 50);
    const error = await client.run("hi", { signal: controller.signal }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(LLMCancelledError);
    expect(error).toMatchObject({ reason: "aborted" });
    expect(await requests()).toHaveLength(1);
  });
});
