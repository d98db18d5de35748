// Cancellation (SPEC.md 2.6): a parent abort or deadline rejects the whole load promptly with the
// cancellation error, after closing every connection and child it opened; a server's own timeout only
// fails that server.
import { afterEach, describe, expect, it } from "vitest";
import { createToolkit, listMcpTools, McpCancelledError, McpDeadlineError } from "../../../reference/index.ts";
import { collectingLogger, eventually, fixturePool } from "./helpers.ts";

const pool = fixturePool();
afterEach(() => pool.stopAll());

const abortAfter = (ms: number) => {
  const controller = new AbortController();
  setTimeout(() => controller.abort(), ms);
  return controller.signal;
};

async function timed<T>(work: Promise<T>): Promise<{ error: unknown; ms: number }> {
  const started = performance.now();
  try {
    await work;
    return { error: undefined, ms: performance.now() - started };
  } catch (error) {
    return { error, ms: performance.now() - started };
  }
}

describe("parent cancel", () => {
  // The abort comes once the hung server has been contacted, not after a fixed time: a node child
  // needs ~80 ms to start and record its pid, seconds on a loaded machine (a fixed 600 ms sometimes
  // aborted before the hung stdio child had been reached). "Promptly" is measured from the abort.
  it.each(["mcp-hung-http", "mcp-hung-stdio"])("rejects a load stuck on %s promptly and leaves nothing behind", async (kind) => {
    const hung = await pool.start(kind);
    const good = await pool.start("mcp-abc");
    const controller = new AbortController();
    const load = createToolkit({
      mcpConfig: { good: good.vars.server, hung: hung.vars.server },
      signal: controller.signal,
      logger: collectingLogger().logger,
    });
    load.catch(() => undefined); // judged below, after the abort
    const reached = await eventually(hung.snap, (snap) => snap.connections.total > 0, 15_000);
    controller.abort();
    const { error, ms } = await timed(load);
    expect(reached.connections.total, "the hung server was contacted within 15 s").toBeGreaterThan(0);
    expect(error).toBeInstanceOf(McpCancelledError);
    expect(error).not.toBeInstanceOf(McpDeadlineError);
    expect(ms).toBeLessThan(2000);
    // The good server's child, too, was opened by this load and must be gone.
    for (const fixture of [hung, good]) {
      const snap = await eventually(fixture.snap, (value) => value.connections.open === 0 && value.processes.alive.length === 0, 500);
      expect(snap.connections.open).toBe(0);
      expect(snap.processes.alive).toEqual([]);
    }
    const hungSnap = await hung.snap();
    expect(hungSnap.connections.total).toBeGreaterThan(0); // it was really contacted
  });
  it("reports a deadline as McpDeadlineError", async () => {
    const hung = await pool.start("mcp-hung-http");
    const { error, ms } = await timed(createToolkit({ mcpConfig: { hung: hung.vars.server }, signal: AbortSignal.timeout(100) }));
    expect(error).toBeInstanceOf(McpDeadlineError);
    expect(ms).toBeLessThan(2000);
  });
  it("rejects at once when the signal is already aborted, contacting nobody", async () => {
    const good = await pool.start("mcp-abc", { transport: "http" });
    const controller = new AbortController();
    controller.abort();
    await expect(createToolkit({ mcpConfig: { good: good.vars.server }, signal: controller.signal })).rejects.toBeInstanceOf(
      McpCancelledError,
    );
    expect((await good.snap()).connections.total).toBe(0);
  });
  it("cancels the inventory the same way", async () => {
    const hung = await pool.start("mcp-hung-stdio");
    const { error, ms } = await timed(listMcpTools({ hung: hung.vars.server }, { signal: abortAfter(100) }));
    expect(error).toBeInstanceOf(McpCancelledError);
    expect(ms).toBeLessThan(2000);
    expect((await eventually(hung.snap, (snap) => snap.processes.alive.length === 0, 500)).processes.alive).toEqual([]);
  });
});

describe("per-server timeout (mcp.cancel.server-timeout, mcp.connect.phase-timeout)", () => {
  it("fails only the slow servers, the SSE fallback included, and builds the toolkit", async () => {
    const hungHttp = await pool.start("mcp-hung-http", { server: { timeout: 300 } });
    // 405 to the POST (so the fallback is due, mcp.connect.sse-fallback-when), then an SSE GET never answered.
    const hungSse = await pool.start("mcp-abc", { transport: "sse", sseGet: "hang", server: { timeout: 300 } });
    const hungStdio = await pool.start("mcp-hung-stdio", { server: { timeout: 300 } });
    const good = await pool.start("mcp-abc", { transport: "http" });
    const { warnings, logger } = collectingLogger();
    const { error, ms } = await timed(
      createToolkit({
        mcpConfig: { h: hungHttp.vars.server, e: hungSse.vars.server, s: hungStdio.vars.server, good: good.vars.server },
        logger,
      }).then(async (toolkit) => {
        expect(toolkit.mcpStatus()).toEqual({ h: "failed", e: "failed", s: "failed", good: "connected" });
        expect(toolkit.tools().map((tool) => tool.name)).toEqual(["good_a", "good_b", "good_c"]);
        await toolkit.close();
      }),
    );
    expect(error).toBeUndefined();
    expect(ms).toBeLessThan(5000); // bounded: streamable (300) + SSE fallback start (300), not 30 s
    // No fallback after a timeout (mcp.connect.sse-fallback-when); after the 405 the SSE start was tried and abandoned.
    expect((await hungHttp.snap()).http.map((request) => request.method)).toEqual(["POST"]);
    // The fixture records the GET when it arrives: a moment after the client gave up, on a loaded machine.
    expect((await eventually(hungSse.snap, (snap) => snap.http.length >= 2, 2000)).http.map((request) => request.method)).toEqual([
      "POST",
      "GET",
    ]);
    expect(warnings.join("\n")).toMatch(/sse start timed out after 300 ms/);
    for (const fixture of [hungHttp, hungSse]) {
      const after = await eventually(fixture.snap, (snap) => snap.connections.open === 0, 500);
      expect(after.connections.open).toBe(0);
    }
    expect((await eventually(hungStdio.snap, (snap) => snap.processes.alive.length === 0, 500)).processes.alive).toEqual([]);
  });
});
