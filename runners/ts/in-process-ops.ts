// client.create-in-process on the reference (runners/PROTOCOL.md#clientcreateinprocess): a client around a
// scripted generate that records what it was handed. The handle is a client like client.create's, so
// client.run, ask, stream and observations take it as they are.
import { createInProcessClient, type InProcessRequest, type InProcessResponse } from "../../reference/index.ts";
import type { OperationInput } from "../protocol/protocol.ts";
import type { ClientObservationsOutput } from "../protocol/operations.types.ts";
import { newClientRecord, type ClientEntry } from "./client-ops.ts";
import { ContractError } from "./errors.ts";
import type { OpHandlers } from "./session.ts";

type Script = OperationInput<"client.create-in-process">["generate"];
type GenerateRequests = NonNullable<ClientObservationsOutput["generateRequests"]>;

/** The i-th call answers the i-th entry (or raises its `throws`); a call past the end raises. Each call is recorded first. */
function scriptedGenerate(script: Script, received: GenerateRequests) {
  return (request: InProcessRequest): InProcessResponse => {
    const entry = script[received.length];
    received.push({ messages: structuredClone(request.messages), tools: structuredClone(request.tools), model: request.model });
    if (entry === undefined) throw new Error(`generate was called ${received.length} times; its script has ${script.length} entries`);
    if (entry.throws !== undefined) throw new Error(entry.throws);
    return {
      content: entry.content,
      toolCalls: entry.toolCalls?.map((call) => ({ id: call.id, name: call.name, arguments: call.arguments })),
      usage: entry.usage && { promptTokens: entry.usage.input, completionTokens: entry.usage.output },
    };
  };
}

export const inProcessOps: OpHandlers<"client.create-in-process"> = {
  async "client.create-in-process"(input, session) {
    const handle = input.handle;
    if (session.clients.has(handle)) throw new ContractError("other", `client "${handle}" already exists`);
    const entry = { ...newClientRecord(), generateRequests: [] as GenerateRequests };
    const client = createInProcessClient({
      model: input.model,
      generate: scriptedGenerate(input.generate, entry.generateRequests),
      systemPrompt: input.systemPrompt,
      maxTurns: input.maxTurns,
      retries: input.retries,
      logger: { warn: (message) => entry.warnings.push(message) },
    });
    session.clients.set(handle, { ...entry, client } satisfies ClientEntry);
    return {};
  },
};
