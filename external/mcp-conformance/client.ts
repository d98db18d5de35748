// Client under test for the official MCP conformance suite (@modelcontextprotocol/conformance): the
// reference's MCP loader (reference/mcp, loadMcp) doing what a tool loader does, nothing more.
//
//   tsx external/mcp-conformance/client.ts URL      (MCP_CONFORMANCE_SCENARIO=NAME in the environment)
//
// The suite starts its scenario's server, runs this with the server's URL as the last argument and the
// scenario's name in MCP_CONFORMANCE_SCENARIO, then judges what its server saw. This connects to URL as
// one remote server (streamable HTTP, then SSE, as SPEC 2.2 says), lists its tools, calls the tools the
// scenario expects to be called (CALLS below: a tool loader calls what its model asks for, so the
// arguments stand in for the model), closes, and exits 0 when the server connected and every call
// returned the expected output, 1 otherwise (2: bad usage). Each phase is bounded (TIMEOUT_MS, and
// CALL_TIMEOUT_MS per call); the suite and scripts/mcp-conformance/run.ts bound the whole process.
import { loadMcp } from "../../reference/mcp/index.ts";

/** Per-phase bound (start, initialize, tools/list) given to the loader as the server's `timeout`. */
const TIMEOUT_MS = 5_000;
/** Bound of one tools/call: the reference's execute has none of its own (issue 11 notes the gap). */
const CALL_TIMEOUT_MS = 10_000;
/** The config's server name: exposed tool names are SERVER_TOOL (SPEC mcp.naming). */
const SERVER = "conformance";

/**
 * The calls each scenario's server waits for, by original tool name, and the output each must return.
 * Other scenarios: connect and list only. The output is checked here because the suite's tools_call
 * (0.1.13) records success whatever arguments arrive: a loader that dropped them would pass it.
 */
const CALLS: Record<string, { tool: string; args: Record<string, unknown>; output: string }[]> = {
  tools_call: [{ tool: "add_numbers", args: { a: 5, b: 3 }, output: "The sum of 5 and 3 is 8" }],
  "sse-retry": [{ tool: "test_reconnection", args: {}, output: "Reconnection test completed successfully" }],
};

/** The suite's servers are on this machine; refuse anything else so a run can never reach out. */
function loopbackUrl(text: string | undefined): URL | undefined {
  try {
    const url = new URL(text ?? "");
    return ["localhost", "127.0.0.1", "[::1]"].includes(url.hostname) && url.protocol === "http:" ? url : undefined;
  } catch {
    return undefined;
  }
}

async function main(): Promise<number> {
  const url = loopbackUrl(process.argv[2]);
  const scenario = process.env.MCP_CONFORMANCE_SCENARIO ?? "";
  if (!url) {
    console.error(
      `usage: client.ts URL (a loopback http URL; got ${JSON.stringify(process.argv[2] ?? "")}), scenario in MCP_CONFORMANCE_SCENARIO`,
    );
    return 2;
  }
  const source = await loadMcp({ mcpServers: { [SERVER]: { url: url.href, timeout: TIMEOUT_MS } } });
  try {
    if (source.status[SERVER] !== "connected") {
      console.error(
        `${scenario}: server at ${url.href} did not connect (status ${source.status[SERVER]}; the loader's warning above says why)`,
      );
      return 1;
    }
    console.log(`${scenario}: connected, tools: ${source.tools.map((tool) => tool.name).join(", ") || "(none)"}`);
    let failed = 0;
    for (const call of CALLS[scenario] ?? []) {
      const tool = source.tools.find((candidate) => candidate.name === `${SERVER}_${call.tool}`);
      if (!tool) {
        console.error(`${scenario}: the server listed no tool "${call.tool}"`);
        failed++;
        continue;
      }
      const result = await withTimeout(tool.execute(call.args), CALL_TIMEOUT_MS).catch((error: Error) => ({
        output: error.message,
        isError: true,
      }));
      console.log(`${scenario}: ${call.tool} -> ${result.isError ? "error" : "ok"}: ${result.output}`);
      if (result.isError || result.output !== call.output) {
        console.error(
          `${scenario}: ${call.tool} returned ${JSON.stringify(result.output)}${result.isError ? " as an error" : ""}; expected ${JSON.stringify(call.output)}`,
        );
        failed++;
      }
    }
    return failed === 0 ? 0 : 1;
  } finally {
    await source.close();
  }
}

function withTimeout<T>(work: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const expired = new Promise<never>((_, reject) => (timer = setTimeout(() => reject(new Error(`no result within ${ms} ms`)), ms)));
  return Promise.race([work, expired]).finally(() => clearTimeout(timer));
}

main().then(
  (code) => {
    process.exitCode = code;
  },
  (error: unknown) => {
    console.error(`client.ts: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`);
    process.exitCode = 1;
  },
);
