// Child process of the MCP load row: serves N mcp-abc fixture servers over streamable HTTP, so their
// work does not share the measured process's event loop. Prints one line
//   BENCH-RESULT {"servers": [{server config}, ...]}
// then serves until its stdin closes. Usage: tsx bench/child/mcp-http-servers.ts N
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fixtureKinds } from "../../fixtures/registry.ts";
import type { FixtureInstance } from "../../conformance/scenario/fixture.ts";

const count = Number(process.argv[2] ?? 8);
const workDir = await mkdtemp(join(tmpdir(), "tnc-bench-"));
const fixtures: FixtureInstance[] = [];
for (let index = 0; index < count; index++) {
  fixtures.push(
    await fixtureKinds.get("mcp-abc")!.start({ transport: "http" }, { scenarioId: "bench.mcp-load", workDir: join(workDir, `s${index}`) }),
  );
}
process.stdout.write(`BENCH-RESULT ${JSON.stringify({ servers: fixtures.map((fixture) => fixture.vars.server) })}\n`);
const stop = async () => {
  await Promise.all(fixtures.map((fixture) => fixture.stop()));
  await rm(workDir, { recursive: true, force: true });
  process.exit(0);
};
process.stdin.on("end", () => void stop());
process.stdin.on("close", () => void stop());
process.stdin.resume();
