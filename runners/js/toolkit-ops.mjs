// toolkit.* and mcp.* operations on the port's Toolkit and MCP source (runners/PROTOCOL.md#operations).
import { ContractError, Unsupported, capturingWarnings, jsonCopy, requireHandle } from "./common.mjs";

/** How long toolkit.close / session.reset wait for a toolkit's close before giving up on it. */
export const CLOSE_BOUND_MS = 10_000;

/** `{file: PATH}` names a JSON config file (the port takes a path string); any other object is the config. */
function configInput(raw) {
  const value = raw ?? {};
  const keys = Object.keys(value);
  return keys.length === 1 && keys[0] === "file" && typeof value.file === "string" ? value.file : structuredClone(value);
}

/**
 * The caller's AbortSignal for a load: `deadlineMs` => AbortSignal.timeout (the platform's deadline
 * signal, whose reason is a TimeoutError); `abortAfterMs` => AbortController.abort() that many ms
 * after the load starts (reason: an AbortError). `done()` clears the timer once the load settles.
 */
function callerSignal(input) {
  if (typeof input.deadlineMs === "number") return { signal: AbortSignal.timeout(input.deadlineMs), done: () => undefined };
  if (typeof input.abortAfterMs !== "number") return { signal: undefined, done: () => undefined };
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(), input.abortAfterMs);
  return { signal: controller.signal, done: () => clearTimeout(timer) };
}

/** What a host tool without an input schema declares (the reference's default; the port's Tool type
 * requires one and has no default of its own for a Tool object). */
const DEFAULT_INPUT_SCHEMA = { type: "object", properties: {} };

/**
 * An extra tool as the port's own Tool interface (types.ts:76-82), the shape ToolkitOptions.extraTools
 * takes (toolkit.ts:33) and SPEC toolkit.extra-tools describes: {name, description, inputSchema,
 * execute}. Its execute throws an Error with the `throws` message (the TypeScript way a host tool
 * fails; the runner does not catch it: turning it into a result is the port's job), returns the
 * given `result`, or else the JSON of its arguments. The port's defineTool helper (native.ts:19) is
 * not used: it wraps a plain function and catches for it, which would hide what Toolkit.execute does
 * with a tool that throws.
 */
function extraTool(data) {
  return {
    name: data.name,
    description: data.description ?? "",
    inputSchema: structuredClone(data.inputSchema ?? DEFAULT_INPUT_SCHEMA),
    source: "native",
    async execute(args) {
      if (data.throws !== undefined) throw new Error(data.throws);
      if (data.result !== undefined) return { output: data.result.output, isError: data.result.isError };
      return { output: JSON.stringify(args ?? {}), isError: false };
    },
  };
}

/** Close a toolkit, bounded: the MCP SDK's stdio close waits up to 2 s per child before SIGTERM.
 * Not inside capturingWarnings: session.reset closes toolkits concurrently (the port's close warns
 * nothing; its client close errors are swallowed, mcp.ts:311). */
async function closeBounded(entry) {
  if (!entry.closing) {
    entry.closing = entry.toolkit.close().catch((error) => {
      process.stderr.write(`js runner: toolkit close failed: ${error?.stack ?? error}\n`);
    });
  }
  let timer;
  const bound = new Promise((resolve) => {
    timer = setTimeout(() => {
      process.stderr.write(`js runner: a toolkit close did not finish within ${CLOSE_BOUND_MS} ms\n`);
      resolve();
    }, CLOSE_BOUND_MS);
  });
  try {
    await Promise.race([entry.closing, bound]);
  } finally {
    clearTimeout(timer);
  }
}

/** The toolkit a client call runs against: the named one, else an empty toolkit (builtins off): the
 * port's run/ask/stream call toolkit.toOpenAI() / skillsPrompt() unconditionally (client.ts:635, 743). */
export async function toolkitForClient(session, input, port) {
  if (input.toolkit !== undefined) return requireHandle(session.toolkits, input.toolkit, "toolkit").toolkit;
  session.notes.push(
    "passed an empty toolkit (createToolkit({builtins: false})): this release's run, ask and stream call the toolkit unconditionally",
  );
  session.emptyToolkit ??= await port.createToolkit({ builtins: false });
  return session.emptyToolkit;
}

const toolInfo = ({ name, description, inputSchema }) => ({ name, description, inputSchema: jsonCopy(inputSchema) });

export function toolkitOps(port) {
  const entryOf = (session, input) => requireHandle(session.toolkits, input.toolkit, "toolkit");

  return {
    async "toolkit.create"(input, session) {
      const handle = String(input.handle);
      if (session.toolkits.has(handle)) throw new ContractError("other", `toolkit "${handle}" already exists`);
      const entry = { toolkit: undefined, warnings: [], closing: undefined };
      const caller = callerSignal(input);
      try {
        entry.toolkit = await capturingWarnings(entry.warnings, () =>
          port.createToolkit({
            mcpConfig: input.mcpConfig === undefined ? undefined : configInput(input.mcpConfig),
            extraTools: (input.extraTools ?? []).map(extraTool),
            builtins: false,
            disableTools: input.disableTools === undefined ? undefined : [...input.disableTools],
            signal: caller.signal,
          }),
        );
      } finally {
        caller.done();
      }
      session.toolkits.set(handle, entry);
      session.cleanups.push(() => closeBounded(entry));
      return { tools: entry.toolkit.tools().map((tool) => tool.name), status: { ...entry.toolkit.mcpStatus() } };
    },

    async "toolkit.tools"(input, session) {
      return { tools: entryOf(session, input).toolkit.tools().map(toolInfo) };
    },

    async "toolkit.execute"(input, session) {
      const entry = entryOf(session, input);
      const args = input.args === undefined ? {} : structuredClone(input.args);
      const result = await capturingWarnings(entry.warnings, () => entry.toolkit.execute(String(input.name), args));
      return { output: result.output, isError: result.isError };
    },

    async "toolkit.adapter"(input, session) {
      const { toolkit } = entryOf(session, input);
      const format = String(input.format);
      if (format === "openai") return { value: jsonCopy(toolkit.toOpenAI()) };
      if (format === "anthropic") return { value: jsonCopy(toolkit.toAnthropic()) };
      if (format === "gemini") return { value: jsonCopy(toolkit.toGemini()) };
      throw new ContractError("other", `unknown adapter format "${format}"`);
    },

    async "toolkit.status"(input, session) {
      return { status: { ...entryOf(session, input).toolkit.mcpStatus() } };
    },

    async "toolkit.warnings"(input, session) {
      return { warnings: [...entryOf(session, input).warnings] };
    },

    async "toolkit.close"(input, session) {
      await closeBounded(entryOf(session, input));
      return {};
    },

    async "toolkit.introspect"() {
      throw new Unsupported("the 0.16.0 js port has no registry of open toolkits");
    },

    async "mcp.list"(input) {
      const caller = callerSignal(input);
      try {
        // The protocol's inventory has no warnings channel: what the port warns goes to stderr only.
        const inventory = await capturingWarnings([], () => port.listMcpTools(configInput(input.config), { signal: caller.signal }));
        const tools = {};
        for (const [server, infos] of Object.entries(inventory.tools ?? {})) tools[server] = infos.map(toolInfo);
        return { tools, status: { ...inventory.status } };
      } finally {
        caller.done();
      }
    },

    /**
     * What the port's parser exposes: parseMcpConfig (mcp.ts:87-97) reads a path, resolves the
     * mcpServers/servers/mcp wrappers and strips the reserved keys, but hands back each server entry
     * raw. The effective type and enabled flag are resolved by unexported functions at connect time
     * (isRemote/isEnabled, mcp.ts:74-84) and the 30000 ms default timeout inline there (mcp.ts:285, 346),
     * so `type`, `enabled`, `timeout` and `tools` are reported only as the parsed entry carries them
     * (PROTOCOL.md mcp.parse: never a value the runner computes itself).
     */
    async "mcp.parse"(input) {
      const parsed = port.parseMcpConfig(configInput(input.config));
      const servers = {};
      for (const [name, raw] of Object.entries(parsed ?? {})) {
        const cfg = raw !== null && typeof raw === "object" ? raw : {};
        const out = {};
        if (cfg.type !== undefined) out.type = cfg.type;
        if (cfg.enabled !== undefined) out.enabled = cfg.enabled;
        if (cfg.timeout !== undefined) out.timeout = cfg.timeout;
        if (cfg.tools !== undefined && cfg.tools !== null) out.tools = jsonCopy(cfg.tools);
        servers[name] = out;
      }
      return { servers };
    },
  };
}
