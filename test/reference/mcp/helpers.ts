// Test helpers: start MCP fixtures in temporary directories and stop them all after each test file.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { FixtureInstance } from "../../../conformance/scenario/fixture.ts";
import type { SessionRecord } from "../../../fixtures/mcp-servers/http-servers.ts";
import { mcpFixtureKinds } from "../../../fixtures/mcp-servers/index.ts";

export interface Snapshot {
  transport: string;
  connections: { open: number; total: number };
  requests: { method: string | null; params?: Record<string, unknown> }[];
  http: { method: string; path: string; headers: Record<string, string> }[];
  processes: { started: number[]; alive: number[]; exited: number[] };
  sessions?: SessionRecord;
}

export function fixturePool() {
  const started: FixtureInstance[] = [];
  const dirs: string[] = [];
  return {
    async start(kind: string, options: Record<string, unknown> = {}): Promise<FixtureInstance & { snap(): Promise<Snapshot> }> {
      const found = mcpFixtureKinds.find((candidate) => candidate.kind === kind);
      if (!found) throw new Error(`no fixture kind ${kind}`);
      const workDir = mkdtempSync(join(tmpdir(), "tnx-mcp-test-"));
      dirs.push(workDir);
      const instance = await found.start(options, { scenarioId: "test", workDir });
      started.push(instance);
      return Object.assign(instance, { snap: () => instance.snapshot() as Promise<Snapshot> });
    },
    async stopAll(): Promise<void> {
      await Promise.all(started.splice(0).map((instance) => instance.stop()));
      for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** Poll until `check` holds, for at most `ms` (server sides notice closed sockets a moment later). */
export async function eventually<T>(read: () => Promise<T>, check: (value: T) => boolean, ms = 1000): Promise<T> {
  const until = Date.now() + ms;
  for (;;) {
    const value = await read();
    if (check(value) || Date.now() >= until) return value;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

export function collectingLogger() {
  const warnings: string[] = [];
  return { warnings, logger: { warn: (message: string) => void warnings.push(message) } };
}
