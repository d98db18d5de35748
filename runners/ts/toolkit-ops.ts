// toolkit.* and mcp.* operations on the reference (runners/PROTOCOL.md#operations).
import {
  createToolkit,
  listMcpTools,
  openToolkits,
  parseMcpConfig,
  readMcpConfigFile,
  type McpConfig,
  type Request,
  type Toolkit,
} from "../../reference/index.ts";
import type { ExtraTool } from "../../reference/types.ts";
import type { OperationInput, OperationName, OperationOutput } from "../protocol/protocol.ts";
import { ContractError } from "./errors.ts";
import { scriptedWaitFor } from "./scripted-wait-for.ts";
import { requireHandle, type OpHandlers, type Session } from "./session.ts";

type ToolCallRecord = OperationOutput<"toolkit.calls">["calls"][number];

interface ToolkitEntry {
  toolkit: Toolkit;
  warnings: string[];
  /** Every execute of a host tool, as it started (toolkit.calls). */
  calls: ToolCallRecord[];
  /** What the toolkit's waitFor received (toolkit.create `waitFor`, toolkit.observations). */
  waitForCalls: Request[];
}

/** With `throws`, the tool raises an Error with that message (core.tool-result: execute must turn it into a result). */
type ExtraToolData = NonNullable<OperationInput<"toolkit.create">["extraTools"]>[number];
type ConfigData = OperationInput<"mcp.parse">["config"];

/**
 * A host tool from its data. It records each call (toolkit.calls); with `suspend`, its i-th call returns
 * a suspension carrying entry i's Request (SPEC client.suspension.request), a null entry or a call past
 * the script's end its normal result.
 */
function extraToolFromData(data: ExtraToolData, calls: ToolCallRecord[]): ExtraTool {
  let count = 0;
  return {
    name: data.name,
    description: data.description,
    inputSchema: data.inputSchema,
    execute: (args, context) => {
      calls.push({ name: data.name, args: structuredClone(args), ...(context?.answer ? { answer: structuredClone(context.answer) } : {}) });
      const suspension = data.suspend?.[count++];
      if (suspension) {
        const { request } = suspension;
        return {
          output: suspension.output ?? request.prompt + (request.url === undefined ? "" : `\n${request.url}`),
          isError: suspension.isError ?? true,
          metadata: { pending: structuredClone(request) },
        };
      }
      if (data.throws !== undefined) throw new Error(data.throws);
      return data.result ?? { output: JSON.stringify(args), isError: false };
    },
  };
}

/** `{file: PATH}` names a JSON config file (mcp.config.file); any other object is the config itself. */
function configInput(value: ConfigData): Record<string, unknown> | string {
  const keys = Object.keys(value);
  return keys.length === 1 && keys[0] === "file" && typeof value.file === "string" ? value.file : value;
}

function parsedConfig(raw: ConfigData): McpConfig {
  const input = configInput(raw);
  return typeof input === "string" ? readMcpConfigFile(input) : parseMcpConfig(input);
}

/**
 * The caller's signal for `abortAfterMs` (an abort that many ms after the load starts) or `deadlineMs`
 * (AbortSignal.timeout: a deadline). `done()` clears the abort timer once the operation settles.
 */
function callerSignal(input: { abortAfterMs?: number; deadlineMs?: number }): { signal?: AbortSignal; done(): void } {
  if (typeof input.deadlineMs === "number") return { signal: AbortSignal.timeout(input.deadlineMs), done: () => undefined };
  if (typeof input.abortAfterMs !== "number") return { done: () => undefined };
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(), input.abortAfterMs);
  return { signal: controller.signal, done: () => clearTimeout(timer) };
}

const entry = (session: Session, input: { toolkit: string }) => requireHandle<ToolkitEntry>(session.toolkits, input.toolkit, "toolkit");

type ToolkitOpName = Extract<OperationName, `toolkit.${string}` | `mcp.${string}`>;

export const toolkitOps: OpHandlers<ToolkitOpName> = {
  async "toolkit.create"(input, session) {
    const handle = input.handle;
    if (session.toolkits.has(handle)) throw new ContractError("other", `toolkit "${handle}" already exists`);
    const warnings: string[] = [];
    const calls: ToolCallRecord[] = [];
    const waitForCalls: Request[] = [];
    const caller = callerSignal(input);
    let toolkit: Toolkit;
    try {
      toolkit = await createToolkit({
        mcpConfig: input.mcpConfig === undefined ? undefined : configInput(input.mcpConfig),
        extraTools: (input.extraTools ?? []).map((data) => extraToolFromData(data, calls)),
        disableTools: input.disableTools,
        signal: caller.signal,
        logger: { warn: (message) => warnings.push(message) },
        waitFor: input.waitFor ? scriptedWaitFor(input.waitFor, waitForCalls) : undefined,
      });
    } finally {
      caller.done();
    }

    session.toolkits.set(handle, { toolkit, warnings, calls, waitForCalls } satisfies ToolkitEntry);
    session.cleanups.push({ what: `toolkit "${handle}"`, run: () => toolkit.close() });
    return { tools: toolkit.tools().map((tool) => tool.name), status: toolkit.mcpStatus() };
  },
  async "toolkit.tools"(input, session) {
    const tools = entry(session, input).toolkit.tools();
    return { tools: tools.map(({ name, description, inputSchema }) => ({ name, description, inputSchema })) };
  },
  async "toolkit.execute"(input, session) {
    const result = await entry(session, input).toolkit.execute(input.name, input.args ?? {});
    return { output: result.output, isError: result.isError };
  },
  async "toolkit.adapter"(input, session) {
    const { toolkit } = entry(session, input);
    const format: string = input.format;
    if (format === "openai") return { value: toolkit.toOpenAI() };
    if (format === "anthropic") return { value: toolkit.toAnthropic() };
    if (format === "gemini") return { value: toolkit.toGemini() };
    throw new ContractError("other", `unknown adapter format "${format}"`);
  },
  async "toolkit.status"(input, session) {
    return { status: entry(session, input).toolkit.mcpStatus() };
  },
  async "toolkit.warnings"(input, session) {
    return { warnings: [...entry(session, input).warnings] };
  },
  async "toolkit.close"(input, session) {
    await entry(session, input).toolkit.close();
    return {};
  },
  async "toolkit.observations"(input, session) {
    return { waitForCalls: structuredClone(entry(session, input).waitForCalls) };
  },
  async "toolkit.introspect"() {
    return openToolkits();
  },
  async "mcp.list"(input) {
    const caller = callerSignal(input);
    try {
      // The protocol's inventory has no warnings channel; failures show as status `failed`.
      return await listMcpTools(configInput(input.config), { signal: caller.signal, logger: { warn: () => undefined } });
    } finally {
      caller.done();
    }
  },
  async "mcp.parse"(input) {
    const servers: OperationOutput<"mcp.parse">["servers"] = {};
    for (const server of parsedConfig(input.config).servers) {
      servers[server.name] = {
        type: server.type,
        enabled: server.enabled,
        timeout: server.timeout,
        ...(server.tools ? { tools: server.tools } : {}),
      };
    }
    return { servers };
  },
  async "toolkit.calls"(input, session) {
    return { calls: structuredClone(entry(session, input).calls) };
  },
};

/** The reference toolkit behind a handle, for client operations that take `toolkit`. */
export function toolkitFor(session: Session, name: string): Toolkit {
  return requireHandle<ToolkitEntry>(session.toolkits, name, "toolkit").toolkit;
}
