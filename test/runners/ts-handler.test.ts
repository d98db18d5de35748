// The ts runner's session (its protocol handler, in-process and in the runner's process): an operation the
// harness gave up on (and reset under) must not leave what it opened running when it finishes later.
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it, vi } from "vitest";
import type { FixtureInstance } from "../../conformance/scenario/fixture.ts";
import { fixtureKinds } from "../../fixtures/registry.ts";
import { ReferenceHandler } from "../../runners/ts/handler.ts";
import { newSession, runCleanups } from "../../runners/ts/session.ts";

const started: FixtureInstance[] = [];
let dir: string | undefined;
afterAll(async () => {
  await Promise.all(started.map((fixture) => fixture.stop()));
  if (dir) await rm(dir, { recursive: true, force: true });
});

async function start(kind: string, name: string, options: Record<string, unknown> = {}): Promise<FixtureInstance> {
  dir ??= await mkdtemp(join(tmpdir(), "tnc-driver-"));
  const fixture = await fixtureKinds.get(kind)!.start(options, { scenarioId: "driver-test", workDir: join(dir, name) });
  started.push(fixture);
  return fixture;
}

describe("ReferenceHandler", () => {
  it("closes a toolkit whose creation finished after the session was reset", async () => {
    const good = await start("mcp-abc", "good");
    const hung = await start("mcp-hung-http", "hung", { server: { timeout: 800 } });
    const handler = new ReferenceHandler();
    const creating = handler.handle({
      type: "request",
      seq: 1,
      op: "toolkit.create",
      input: { handle: "tk", mcpConfig: { good: good.vars.server, hung: hung.vars.server } },
    });
    await new Promise((resolve) => setTimeout(resolve, 300));
    await handler.handle({ type: "request", seq: 2, op: "session.reset", input: {} }); // as the engine does after giving up on a step
    const answer = await creating;
    expect(answer).toMatchObject({ type: "result", seq: 1, value: { status: { good: "connected", hung: "failed" } } });
    const snapshot = (await good.snapshot()) as { processes: { started: number[]; alive: number[] } };
    expect(snapshot.processes.started).toHaveLength(1);
    expect(snapshot.processes.alive).toEqual([]);
  });
});

describe('runCleanups (session.reset\'s close, PROTOCOL.md "A bounded close")', () => {
  it("runs every cleanup side by side, a failing one stopping none, and leaves one that outlasts its bound, saying which", async () => {
    const ran: string[] = [];
    const written: string[] = [];
    const stderr = vi.spyOn(process.stderr, "write").mockImplementation((chunk) => (written.push(String(chunk)), true));
    const session = newSession();
    session.cleanups.push(
      { what: 'toolkit "hung"', run: () => new Promise<void>(() => ran.push("hung")) },
      { what: 'toolkit "throws"', run: () => (ran.push("throws"), Promise.reject(new Error("refused"))) },
      { what: 'toolkit "fine"', run: async () => void ran.push("fine") },
    );
    try {
      const started = performance.now();
      await runCleanups(session, 200);
      expect(performance.now() - started).toBeLessThan(5000);
    } finally {
      stderr.mockRestore();
    }
    expect(ran.sort()).toEqual(["fine", "hung", "throws"]);
    expect(session.cleanups).toEqual([]);
    expect(written).toEqual(['ts runner: session.reset: toolkit "hung" did not finish closing within 200 ms; left closing\n']);
  });
});
