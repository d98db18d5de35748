// listMcpTools (SPEC.md 2.7): original names, normalized schemas, unfiltered, isolated failures, full teardown.
import { afterEach, describe, expect, it } from "vitest";
import { abcToolList } from "../../../fixtures/mcp-servers/bin/abc-tools.mjs";
import { listMcpTools } from "../../../reference/index.ts";
import { normalizeSchema } from "../../../reference/mcp/naming.ts";
import { eventually, fixturePool } from "./helpers.ts";

const pool = fixturePool();
afterEach(() => pool.stopAll());

describe("listMcpTools", () => {
  it("lists original names with schemas, unfiltered, marks bad and disabled servers, closes everything", async () => {
    const good = await pool.start("mcp-abc", { names: { a: "get/x" }, pageSize: 2 });
    const bad = await pool.start("mcp-unreachable");
    const off = await pool.start("mcp-abc", { transport: "http" });
    const inventory = await listMcpTools(
      {
        mcpServers: {
          good: { ...(good.vars.server as object), tools: { b: true } },
          bad: bad.vars.server,
          off: { ...(off.vars.server as object), disabled: true },
        },
      },
      { logger: { warn: () => undefined } },
    );
    const expected = abcToolList({ a: "get/x" }).map((tool) => ({
      description: "",
      ...tool,
      inputSchema: normalizeSchema(tool.inputSchema),
    }));
    expect(inventory).toEqual({ tools: { good: expected }, status: { good: "connected", bad: "failed", off: "disabled" } });
    expect((await off.snap()).connections.total).toBe(0);
    const snap = await eventually(good.snap, (value) => value.processes.alive.length === 0, 500);
    expect(snap.processes.started).toHaveLength(1);
    expect(snap.processes.alive).toEqual([]);
    expect(snap.requests.filter((request) => request.method === "tools/list")).toHaveLength(2); // paginated
  });
});
