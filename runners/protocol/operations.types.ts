// Generated from runners/protocol/operations.schema.json and runners/protocol/outputs.schema.json by scripts/gen-types.ts. Do not edit; run `npm run gen:types`.

/**
 * The answers a scripted waitFor gives, the i-th call the i-th (after its delayMs when given).
 *
 * This interface was referenced by `Operations`'s JSON-Schema
 * via the `definition` "scriptedAnswers".
 */
export type ScriptedAnswers = {
  ok: boolean;
  data?: {
    [k: string]: unknown;
  };
  reason?: string;
  delayMs?: number;
}[];
/**
 * One normalized stream event: text deltas, tool calls and results as yielded, usage once (the call's totals) just before done.
 *
 * This interface was referenced by `Operations`'s JSON-Schema
 * via the `definition` "event".
 */
export type Event =
  | {
      type: "text";
      delta: string;
    }
  | {
      type: "tool_call";
      id: string;
      name: string;
      args: {
        [k: string]: unknown;
      };
    }
  | {
      type: "tool_result";
      id: string;
      name: string;
      output: string;
      isError: boolean;
    }
  | {
      type: "usage";
      input: number;
      output: number;
    }
  | {
      type: "done";
    }
  | {
      type: "pending";
      request: Request1;
    };
/**
 * One onMetric event (SPEC client.metrics.events), normalized to these keys whatever the port's casing; `error` only on a failed call's run event.
 *
 * This interface was referenced by `Operations`'s JSON-Schema
 * via the `definition` "metricEvent".
 */
export type MetricEvent =
  | {
      event: "llm";
      model: string;
      status: "ok" | "error";
      /**
       * Milliseconds the event measured.
       */
      ms: number;
      promptTokens: number;
      completionTokens: number;
    }
  | {
      event: "tool";
      tool: string;
      source: string;
      isError: boolean;
      pending: boolean;
      /**
       * Milliseconds the event measured.
       */
      ms: number;
    }
  | {
      event: "run";
      model: string;
      turns: number;
      toolCalls: number;
      totalTokens: number;
      /**
       * Milliseconds the event measured.
       */
      ms: number;
      error?: string;
    };
/**
 * A server's state after the load.
 *
 * This interface was referenced by `Operations`'s JSON-Schema
 * via the `definition` "serverStatus".
 */
export type ServerStatus = "connected" | "disabled" | "failed";

/**
 * Every operation of runners/PROTOCOL.md: its input and its output (a result's value).
 */
export interface Operations {
  "session.reset": {
    input: SessionResetInput;
    output: SessionResetOutput;
  };
  "runner.echo": {
    input: RunnerEchoInput;
    output: RunnerEchoOutput;
  };
  "client.create": {
    input: ClientCreateInput;
    output: ClientCreateOutput;
  };
  "client.run": {
    input: ClientRunInput;
    output: ClientRunOutput;
  };
  "client.ask": {
    input: ClientAskInput;
    output: ClientAskOutput;
  };
  "client.stream": {
    input: ClientStreamInput;
    output: ClientStreamOutput;
  };
  "client.observations": {
    input: ClientObservationsInput;
    output: ClientObservationsOutput;
  };
  "client.metrics": {
    input: ClientMetricsInput;
    output: ClientMetricsOutput;
  };
  "store.get": {
    input: StoreGetInput;
    output: StoreGetOutput;
  };
  "store.save": {
    input: StoreSaveInput;
    output: StoreSaveOutput;
  };
  "toolkit.create": {
    input: ToolkitCreateInput;
    output: ToolkitCreateOutput;
  };
  "toolkit.tools": {
    input: ToolkitToolsInput;
    output: ToolkitToolsOutput;
  };
  "toolkit.execute": {
    input: ToolkitExecuteInput;
    output: ToolkitExecuteOutput;
  };
  "toolkit.adapter": {
    input: ToolkitAdapterInput;
    output: ToolkitAdapterOutput;
  };
  "toolkit.status": {
    input: ToolkitStatusInput;
    output: ToolkitStatusOutput;
  };
  "toolkit.warnings": {
    input: ToolkitWarningsInput;
    output: ToolkitWarningsOutput;
  };
  "toolkit.close": {
    input: ToolkitCloseInput;
    output: ToolkitCloseOutput;
  };
  "toolkit.introspect": {
    input: ToolkitIntrospectInput;
    output: ToolkitIntrospectOutput;
  };
  "mcp.list": {
    input: McpListInput;
    output: McpListOutput;
  };
  "mcp.parse": {
    input: McpParseInput;
    output: McpParseOutput;
  };
  "toolkit.calls": {
    input: ToolkitCallsInput;
    output: ToolkitCallsOutput;
  };
  "client.create-in-process": {
    input: ClientCreateInProcessInput;
    output: ClientCreateInProcessOutput;
  };
  "toolkit.observations": {
    input: ToolkitObservationsInput;
    output: ToolkitObservationsOutput;
  };
}
/**
 * This interface was referenced by `Operations`'s JSON-Schema
 * via the `definition` "SessionResetInput".
 */
export interface SessionResetInput {}
/**
 * An operation that answers nothing but its success.
 */
export interface SessionResetOutput {}
/**
 * This interface was referenced by `Operations`'s JSON-Schema
 * via the `definition` "RunnerEchoInput".
 */
export interface RunnerEchoInput {
  value: unknown;
}
/**
 * This interface was referenced by `Operations`'s JSON-Schema
 * via the `definition` "RunnerEchoOutput".
 */
export interface RunnerEchoOutput {
  value: unknown;
}
/**
 * This interface was referenced by `Operations`'s JSON-Schema
 * via the `definition` "ClientCreateInput".
 */
export interface ClientCreateInput {
  handle: string;
  style: "openai" | "anthropic";
  baseUrl: string;
  model: string;
  apiKey?: string;
  headers?: {
    [k: string]: string;
  };
  systemPrompt?: string;
  maxTurns?: number;
  retries?: number;
  retryBaseMs?: number;
  timeoutMs?: number;
  requestParams?: {
    [k: string]: unknown;
  };
  bodyTransform?: {
    patch?: {
      op: "add" | "remove" | "replace" | "move" | "copy" | "test";
      path: string;
      from?: string;
      value?: unknown;
    }[];
    returnNull?: boolean;
    /**
     * Apply the patch (or returnNull) only on these turns of a call (0-based, like hooks.beforeLLM.onTurns); on the others the body is sent unchanged. All turns when absent.
     */
    onTurns?: number[];
    /**
     * Apply the patch to the very body object received (mutate it) instead of to a copy; then return that same object, or null with returnNull (an in-place edit then reaches the wire: SPEC client.body-transform.null).
     */
    inPlace?: boolean;
  };
  hooks?: {
    beforeLLM?: {
      setTools?: unknown[];
      onTurns?: number[];
    };
    beforeTool?: {
      result?: {
        output: string;
        isError: boolean;
        /**
         * The hook's result is a suspension: its metadata.pending is this Request (capability client.suspension).
         */
        pending?: {
          id: string;
          kind: string;
          prompt: string;
          url?: string;
          data?: {
            [k: string]: unknown;
          };
          expiresAt?: string;
        };
      };
      args?: {
        [k: string]: unknown;
      };
    };
    /**
     * Install an afterLLM hook that records {turn, model, response} (the response as the hook received it) and returns nothing.
     */
    afterLLM?: {};
    /**
     * Install an afterTool hook that records {name, args, result} and, when `result` is given, returns it as the replacement (only for the tools named in `onTools`, when given).
     */
    afterTool?: {
      result?: {
        output: string;
        isError: boolean;
      };
      onTools?: string[];
    };
  };
  transport?: "default" | "recording";
  store?: "default" | "provided";
  /**
   * Install a waitFor (SPEC client.suspension.*) that records each Request it receives (client.observations waitForCalls) and answers the i-th call with the i-th entry, after delayMs when given, the Answer's id being the request's; a call past the end is answered {ok: false, reason: "cancelled"}.
   */
  waitFor?: {
    answers: ScriptedAnswers;
  };
  /**
   * true: install an onMetric sink that records every metric event, reported by client.observations as metricEvents (normalized: runners/PROTOCOL.md).
   */
  onMetric?: boolean;
}
/**
 * An operation that answers nothing but its success.
 */
export interface ClientCreateOutput {}
/**
 * This interface was referenced by `Operations`'s JSON-Schema
 * via the `definition` "ClientRunInput".
 */
export interface ClientRunInput {
  client: string;
  prompt: string;
  toolkit?: string;
  history?: {
    [k: string]: unknown;
  }[];
  /**
   * Cancel the call this many milliseconds after it starts, through the language's cancel mechanism (capability client.cancel); the call then fails with kind cancelled.
   */
  abortAfterMs?: number;
}
/**
 * What client.run and client.ask return; client.stream adds its events.
 */
export interface ClientRunOutput {
  text: string;
  usage: Usage;
  /**
   * The conversation's wire-style messages, where the implementation returns them.
   */
  messages?: {
    [k: string]: unknown;
  }[];
  /**
   * pending: the run halted on a suspension no waitFor resolved (SPEC client.suspension.halt); done: it ended otherwise; incomplete: upstream's status for a run a limit stopped, which this contract does not pin. Sent only by runners that declare client.suspension.
   */
  status?: "done" | "pending" | "incomplete";
  pending?: Request;
}
/**
 * Tokens summed over all turns of the call.
 *
 * This interface was referenced by `Operations`'s JSON-Schema
 * via the `definition` "usage".
 */
export interface Usage {
  input: number;
  output: number;
}
/**
 * The Request the run halted on, present when status is pending.
 */
export interface Request {
  id?: string;
  kind?: string;
  prompt?: string;
  url?: string;
  data?: {
    [k: string]: unknown;
  };
  expiresAt?: string;
  [k: string]: unknown;
}
/**
 * This interface was referenced by `Operations`'s JSON-Schema
 * via the `definition` "ClientAskInput".
 */
export interface ClientAskInput {
  client: string;
  prompt: string;
  toolkit?: string;
  id: string;
  /**
   * Cancel the call this many milliseconds after it starts, through the language's cancel mechanism (capability client.cancel); the call then fails with kind cancelled.
   */
  abortAfterMs?: number;
}
/**
 * What client.run and client.ask return; client.stream adds its events.
 */
export interface ClientAskOutput {
  text: string;
  usage: Usage;
  /**
   * The conversation's wire-style messages, where the implementation returns them.
   */
  messages?: {
    [k: string]: unknown;
  }[];
  /**
   * pending: the run halted on a suspension no waitFor resolved (SPEC client.suspension.halt); done: it ended otherwise; incomplete: upstream's status for a run a limit stopped, which this contract does not pin. Sent only by runners that declare client.suspension.
   */
  status?: "done" | "pending" | "incomplete";
  pending?: Request;
}
/**
 * This interface was referenced by `Operations`'s JSON-Schema
 * via the `definition` "ClientStreamInput".
 */
export interface ClientStreamInput {
  client: string;
  prompt: string;
  toolkit?: string;
  id?: string;
  /**
   * Wire-style messages before the prompt, like client.run's (capability client.stream-history).
   */
  history?: {
    [k: string]: unknown;
  }[];
  /**
   * Cancel the call this many milliseconds after it starts, through the language's cancel mechanism (capability client.cancel); the call then fails with kind cancelled.
   */
  abortAfterMs?: number;
}
/**
 * runResult and the call's normalized events.
 *
 * This interface was referenced by `Operations`'s JSON-Schema
 * via the `definition` "ClientStreamOutput".
 */
export interface ClientStreamOutput {
  text: string;
  usage: Usage;
  messages?: {
    [k: string]: unknown;
  }[];
  events: Event[];
  /**
   * pending: the run halted on a suspension no waitFor resolved (SPEC client.suspension.halt); done: it ended otherwise; incomplete: upstream's status for a run a limit stopped, which this contract does not pin. Sent only by runners that declare client.suspension.
   */
  status?: "done" | "pending" | "incomplete";
  pending?: Request2;
}
/**
 * A suspension's Request as the port serializes it. SPEC client.suspension.request fixes its keys (id, kind, prompt, url, data, expiresAt); the shape is left open here so that a port whose Request drops, adds or re-cases a key fails the scenarios that compare it, rather than reading as a runner's bug.
 *
 * This interface was referenced by `Operations`'s JSON-Schema
 * via the `definition` "request".
 */
export interface Request1 {
  id?: string;
  kind?: string;
  prompt?: string;
  url?: string;
  data?: {
    [k: string]: unknown;
  };
  expiresAt?: string;
  [k: string]: unknown;
}
/**
 * A suspension's Request as the port serializes it. SPEC client.suspension.request fixes its keys (id, kind, prompt, url, data, expiresAt); the shape is left open here so that a port whose Request drops, adds or re-cases a key fails the scenarios that compare it, rather than reading as a runner's bug.
 */
export interface Request2 {
  id?: string;
  kind?: string;
  prompt?: string;
  url?: string;
  data?: {
    [k: string]: unknown;
  };
  expiresAt?: string;
  [k: string]: unknown;
}
/**
 * This interface was referenced by `Operations`'s JSON-Schema
 * via the `definition` "ClientObservationsInput".
 */
export interface ClientObservationsInput {
  client: string;
}
/**
 * This interface was referenced by `Operations`'s JSON-Schema
 * via the `definition` "ClientObservationsOutput".
 */
export interface ClientObservationsOutput {
  /**
   * Bodies the body transform received, in call order.
   */
  transformInputs: {
    [k: string]: unknown;
  }[];
  hookCalls: {
    hook: "beforeLLM" | "beforeTool" | "afterLLM" | "afterTool";
    input: {
      [k: string]: unknown;
    };
  }[];
  /**
   * What the implementation logged as warnings for this client.
   */
  warnings: string[];
  transportRequests: {
    method: string;
    url: string;
    body: unknown;
  }[];
  storeAccessor: "provided" | "default" | "missing";
  /**
   * Every Request the client's waitFor received, in call order (capability client.suspension: absent from runners that do not declare it).
   */
  waitForCalls?: Request1[];
  /**
   * With client.create's onMetric: every metric event the sink received, in order, normalized (capability client.metrics).
   */
  metricEvents?: MetricEvent[];
  /**
   * Every request an in-process client's generate received, in call order (a client of client.create-in-process; capability client.in-process: absent from other clients and runners).
   */
  generateRequests?: {
    /**
     * the conversation as generate received it (OpenAI-shaped)
     */
    messages: {
      [k: string]: unknown;
    }[];
    /**
     * the tool schemas offered for this call, [] when the request carries none
     */
    tools: unknown[];
    model: string;
  }[];
}
/**
 * The client's metrics() text, the Prometheus exposition (capability client.metrics).
 *
 * This interface was referenced by `Operations`'s JSON-Schema
 * via the `definition` "ClientMetricsInput".
 */
export interface ClientMetricsInput {
  client: string;
}
/**
 * This interface was referenced by `Operations`'s JSON-Schema
 * via the `definition` "ClientMetricsOutput".
 */
export interface ClientMetricsOutput {
  /**
   * What the client's metrics() returned, exactly.
   */
  text: string;
}
/**
 * This interface was referenced by `Operations`'s JSON-Schema
 * via the `definition` "StoreGetInput".
 */
export interface StoreGetInput {
  client: string;
  id: string;
}
/**
 * This interface was referenced by `Operations`'s JSON-Schema
 * via the `definition` "StoreGetOutput".
 */
export interface StoreGetOutput {
  messages:
    | {
        [k: string]: unknown;
      }[]
    | null;
}
/**
 * This interface was referenced by `Operations`'s JSON-Schema
 * via the `definition` "StoreSaveInput".
 */
export interface StoreSaveInput {
  client: string;
  id: string;
  messages: {
    [k: string]: unknown;
  }[];
}
/**
 * An operation that answers nothing but its success.
 */
export interface StoreSaveOutput {}
/**
 * This interface was referenced by `Operations`'s JSON-Schema
 * via the `definition` "ToolkitCreateInput".
 */
export interface ToolkitCreateInput {
  handle: string;
  mcpConfig?:
    | {
        file: string;
      }
    | {
        [k: string]: unknown;
      };
  extraTools?: {
    name: string;
    description?: string;
    inputSchema?: {
      [k: string]: unknown;
    };
    result?: {
      output: string;
      isError: boolean;
    };
    /**
     * The tool raises an error (the language's exception, Go's error return) with this message instead of returning a result.
     */
    throws?: string;
    /**
     * A script of the tool's calls (capability client.suspension): the i-th execute of this tool returns a suspension carrying entry i's request (output and isError as given, by default the request's prompt, followed by a newline and its url when it has one, and true), and a null entry or a call past the end returns the tool's normal result.
     */
    suspend?: (null | {
      request: {
        id: string;
        kind: string;
        prompt: string;
        url?: string;
        data?: {
          [k: string]: unknown;
        };
        expiresAt?: string;
      };
      output?: string;
      isError?: boolean;
    })[];
  }[];
  disableTools?: string[];
  abortAfterMs?: number;
  deadlineMs?: number;
  /**
   * Give the toolkit a waitFor (SPEC mcp.elicitation.*) that records each Request it receives (toolkit.observations waitForCalls) and answers the i-th call with the i-th entry, after delayMs when given, the Answer's id being the request's; a call past the end is answered {ok: false, reason: "cancelled"}. Absent: no waitFor.
   */
  waitFor?: {
    answers: ScriptedAnswers;
  };
}
/**
 * This interface was referenced by `Operations`'s JSON-Schema
 * via the `definition` "ToolkitCreateOutput".
 */
export interface ToolkitCreateOutput {
  /**
   * The exposed tool names in the toolkit's order.
   */
  tools: string[];
  status: StatusMap;
}
/**
 * Each configured server's state, by server name.
 *
 * This interface was referenced by `Operations`'s JSON-Schema
 * via the `definition` "statusMap".
 */
export interface StatusMap {
  [k: string]: ServerStatus;
}
/**
 * This interface was referenced by `Operations`'s JSON-Schema
 * via the `definition` "ToolkitToolsInput".
 */
export interface ToolkitToolsInput {
  toolkit: string;
}
/**
 * This interface was referenced by `Operations`'s JSON-Schema
 * via the `definition` "ToolkitToolsOutput".
 */
export interface ToolkitToolsOutput {
  tools: ToolInfo[];
}
/**
 * A tool as the toolkit exposes it.
 *
 * This interface was referenced by `Operations`'s JSON-Schema
 * via the `definition` "toolInfo".
 */
export interface ToolInfo {
  name: string;
  description: string;
  inputSchema: {
    [k: string]: unknown;
  };
}
/**
 * This interface was referenced by `Operations`'s JSON-Schema
 * via the `definition` "ToolkitExecuteInput".
 */
export interface ToolkitExecuteInput {
  toolkit: string;
  name: string;
  args?: {
    [k: string]: unknown;
  };
}
/**
 * This interface was referenced by `Operations`'s JSON-Schema
 * via the `definition` "ToolkitExecuteOutput".
 */
export interface ToolkitExecuteOutput {
  output: string;
  isError: boolean;
}
/**
 * This interface was referenced by `Operations`'s JSON-Schema
 * via the `definition` "ToolkitAdapterInput".
 */
export interface ToolkitAdapterInput {
  toolkit: string;
  format: "openai" | "anthropic" | "gemini";
}
/**
 * This interface was referenced by `Operations`'s JSON-Schema
 * via the `definition` "ToolkitAdapterOutput".
 */
export interface ToolkitAdapterOutput {
  value: unknown;
}
/**
 * This interface was referenced by `Operations`'s JSON-Schema
 * via the `definition` "ToolkitStatusInput".
 */
export interface ToolkitStatusInput {
  toolkit: string;
}
/**
 * This interface was referenced by `Operations`'s JSON-Schema
 * via the `definition` "ToolkitStatusOutput".
 */
export interface ToolkitStatusOutput {
  status: StatusMap;
}
/**
 * This interface was referenced by `Operations`'s JSON-Schema
 * via the `definition` "ToolkitWarningsInput".
 */
export interface ToolkitWarningsInput {
  toolkit: string;
}
/**
 * This interface was referenced by `Operations`'s JSON-Schema
 * via the `definition` "ToolkitWarningsOutput".
 */
export interface ToolkitWarningsOutput {
  warnings: string[];
}
/**
 * This interface was referenced by `Operations`'s JSON-Schema
 * via the `definition` "ToolkitCloseInput".
 */
export interface ToolkitCloseInput {
  toolkit: string;
}
/**
 * An operation that answers nothing but its success.
 */
export interface ToolkitCloseOutput {}
/**
 * This interface was referenced by `Operations`'s JSON-Schema
 * via the `definition` "ToolkitIntrospectInput".
 */
export interface ToolkitIntrospectInput {}
/**
 * This interface was referenced by `Operations`'s JSON-Schema
 * via the `definition` "ToolkitIntrospectOutput".
 */
export interface ToolkitIntrospectOutput {
  open: number;
  servers: string[];
}
/**
 * This interface was referenced by `Operations`'s JSON-Schema
 * via the `definition` "McpListInput".
 */
export interface McpListInput {
  config:
    | {
        file: string;
      }
    | {
        [k: string]: unknown;
      };
  abortAfterMs?: number;
  deadlineMs?: number;
}
/**
 * This interface was referenced by `Operations`'s JSON-Schema
 * via the `definition` "McpListOutput".
 */
export interface McpListOutput {
  tools: {
    [k: string]: ToolInfo[];
  };
  status: StatusMap;
}
/**
 * This interface was referenced by `Operations`'s JSON-Schema
 * via the `definition` "McpParseInput".
 */
export interface McpParseInput {
  config:
    | {
        file: string;
      }
    | {
        [k: string]: unknown;
      };
}
/**
 * This interface was referenced by `Operations`'s JSON-Schema
 * via the `definition` "McpParseOutput".
 */
export interface McpParseOutput {
  servers: {
    /**
     * A server as the port's parser gives it. Where the parser normalizes, type is local or remote and enabled follows the disabled/enabled rules; a field the parser leaves as the config gave it is reported so, and absent when absent (runners/PROTOCOL.md mcp.parse).
     */
    [k: string]: {
      /**
       * local or remote, where the parser normalizes it.
       */
      type?: string;
      enabled?: boolean;
      /**
       * Milliseconds, the default applied where the port's parser applies it.
       */
      timeout?: number;
      /**
       * The allowlist map, when the config has one.
       */
      tools?: {
        [k: string]: boolean;
      };
    };
  };
}
/**
 * This interface was referenced by `Operations`'s JSON-Schema
 * via the `definition` "ToolkitCallsInput".
 */
export interface ToolkitCallsInput {
  toolkit: string;
}
/**
 * Every execute of the toolkit's host tools, in the order they started: the arguments it received and the Answer in its context, when there was one.
 *
 * This interface was referenced by `Operations`'s JSON-Schema
 * via the `definition` "ToolkitCallsOutput".
 */
export interface ToolkitCallsOutput {
  calls: {
    name: string;
    args: {
      [k: string]: unknown;
    };
    answer?: Answer;
  }[];
}
/**
 * The Answer a tool found in its context, as the port serializes it. SPEC client.suspension.request fixes its keys (id, ok, data, reason); left open for the same reason as request.
 *
 * This interface was referenced by `Operations`'s JSON-Schema
 * via the `definition` "answer".
 */
export interface Answer {
  id?: string;
  ok?: boolean;
  data?: {
    [k: string]: unknown;
  };
  reason?: string;
  [k: string]: unknown;
}
/**
 * Create a client around a generate function (SPEC client.in-process.*): no baseUrl, apiKey or style. The runner's generate records each request it receives (client.observations generateRequests) and answers the i-th call with the i-th entry of `generate`; a call past the end raises.
 *
 * This interface was referenced by `Operations`'s JSON-Schema
 * via the `definition` "ClientCreateInProcessInput".
 */
export interface ClientCreateInProcessInput {
  handle: string;
  model: string;
  /**
   * Items: What the i-th generate call does: return content (absent: the port's default), tool calls (flat), with usage when given; or raise an error whose message is `throws`.
   */
  generate: {
    content?: string;
    /**
     * @minItems 1
     */
    toolCalls?: [
      {
        /**
         * absent: the model gives none (the library names the call)
         */
        id?: string;
        name: string;
        /**
         * a JSON object (the library encodes it) or a string (already encoded: passed as given); absent: none given
         */
        arguments?:
          | {
              [k: string]: unknown;
            }
          | string;
      },
      ...{
        /**
         * absent: the model gives none (the library names the call)
         */
        id?: string;
        name: string;
        /**
         * a JSON object (the library encodes it) or a string (already encoded: passed as given); absent: none given
         */
        arguments?:
          | {
              [k: string]: unknown;
            }
          | string;
      }[]
    ];
    /**
     * the answer's token usage: input = prompt tokens, output = completion tokens
     */
    usage?: {
      input: number;
      output: number;
    };
    throws?: string;
  }[];
  systemPrompt?: string;
  maxTurns?: number;
  retries?: number;
}
/**
 * An operation that answers nothing but its success.
 */
export interface ClientCreateInProcessOutput {}
/**
 * This interface was referenced by `Operations`'s JSON-Schema
 * via the `definition` "ToolkitObservationsInput".
 */
export interface ToolkitObservationsInput {
  toolkit: string;
}
/**
 * What the toolkit's waitFor (toolkit.create waitFor) received: every Request, in call order.
 *
 * This interface was referenced by `Operations`'s JSON-Schema
 * via the `definition` "ToolkitObservationsOutput".
 */
export interface ToolkitObservationsOutput {
  waitForCalls: Request1[];
}
/**
 * What client.run and client.ask return; client.stream adds its events.
 *
 * This interface was referenced by `Operations`'s JSON-Schema
 * via the `definition` "runResult".
 */
export interface RunResult {
  text: string;
  usage: Usage;
  /**
   * The conversation's wire-style messages, where the implementation returns them.
   */
  messages?: {
    [k: string]: unknown;
  }[];
  /**
   * pending: the run halted on a suspension no waitFor resolved (SPEC client.suspension.halt); done: it ended otherwise; incomplete: upstream's status for a run a limit stopped, which this contract does not pin. Sent only by runners that declare client.suspension.
   */
  status?: "done" | "pending" | "incomplete";
  pending?: Request;
}
/**
 * An operation that answers nothing but its success.
 *
 * This interface was referenced by `Operations`'s JSON-Schema
 * via the `definition` "empty".
 */
export interface Empty {}
/**
 * An operation that answers nothing but its success.
 *
 * This interface was referenced by `Operations`'s JSON-Schema
 * via the `definition` "SessionResetOutput".
 */
export interface SessionResetOutput1 {}
/**
 * An operation that answers nothing but its success.
 *
 * This interface was referenced by `Operations`'s JSON-Schema
 * via the `definition` "ClientCreateOutput".
 */
export interface ClientCreateOutput1 {}
/**
 * What client.run and client.ask return; client.stream adds its events.
 *
 * This interface was referenced by `Operations`'s JSON-Schema
 * via the `definition` "ClientRunOutput".
 */
export interface ClientRunOutput1 {
  text: string;
  usage: Usage;
  /**
   * The conversation's wire-style messages, where the implementation returns them.
   */
  messages?: {
    [k: string]: unknown;
  }[];
  /**
   * pending: the run halted on a suspension no waitFor resolved (SPEC client.suspension.halt); done: it ended otherwise; incomplete: upstream's status for a run a limit stopped, which this contract does not pin. Sent only by runners that declare client.suspension.
   */
  status?: "done" | "pending" | "incomplete";
  pending?: Request;
}
/**
 * What client.run and client.ask return; client.stream adds its events.
 *
 * This interface was referenced by `Operations`'s JSON-Schema
 * via the `definition` "ClientAskOutput".
 */
export interface ClientAskOutput1 {
  text: string;
  usage: Usage;
  /**
   * The conversation's wire-style messages, where the implementation returns them.
   */
  messages?: {
    [k: string]: unknown;
  }[];
  /**
   * pending: the run halted on a suspension no waitFor resolved (SPEC client.suspension.halt); done: it ended otherwise; incomplete: upstream's status for a run a limit stopped, which this contract does not pin. Sent only by runners that declare client.suspension.
   */
  status?: "done" | "pending" | "incomplete";
  pending?: Request;
}
/**
 * An operation that answers nothing but its success.
 *
 * This interface was referenced by `Operations`'s JSON-Schema
 * via the `definition` "StoreSaveOutput".
 */
export interface StoreSaveOutput1 {}
/**
 * An operation that answers nothing but its success.
 *
 * This interface was referenced by `Operations`'s JSON-Schema
 * via the `definition` "ToolkitCloseOutput".
 */
export interface ToolkitCloseOutput1 {}
/**
 * An operation that answers nothing but its success.
 *
 * This interface was referenced by `Operations`'s JSON-Schema
 * via the `definition` "ClientCreateInProcessOutput".
 */
export interface ClientCreateInProcessOutput1 {}
