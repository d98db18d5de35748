// In-process models (SPEC.md client.in-process.*): a client around a host's generate function instead
// of an endpoint. It is the ordinary client over its injectable fetch (client.transport.injectable):
// the fetch below answers every request with what generate returned, so the loop, hooks, memory and
// tool handling are the client's own, and the wire is never reached.
import { createClient } from "./client.ts";
import type { Client, ClientOptions, Message, RequestBody } from "./types.ts";

/** One tool call the model asks for, flat: `arguments` an object (encoded here) or text already encoded. */
export interface InProcessToolCall {
  id?: string;
  name: string;
  arguments?: unknown;
}

/** What generate is handed: the request the client assembled for this turn. */
export interface InProcessRequest {
  /** OpenAI-shaped, as there is no wire to be neutral about. */
  messages: Message[];
  /** The openai tool schemas offered for this turn; [] when none. */
  tools: unknown[];
  model: string;
  /** The whole body, for a model that wants the other keys. */
  body: RequestBody;
}

/** One assistant message: `content` to answer, or `toolCalls` to ask for tools; `usage` optional. */
export interface InProcessResponse {
  content?: string;
  toolCalls?: InProcessToolCall[];
  usage?: { promptTokens?: number; completionTokens?: number };
}

/** Every client option but those that describe a wire, plus generate. */
export type InProcessOptions = Omit<ClientOptions, "baseUrl" | "apiKey" | "style" | "fetch"> & {
  generate(request: InProcessRequest): InProcessResponse | Promise<InProcessResponse>;
};

/** Never dialled (`.invalid` cannot resolve, RFC 2606); the client builds its endpoint from it. */
const SENTINEL_BASE_URL = "http://in-process.invalid/v1";

/** Text is passed through as the model wrote it (core.text-bytes); anything else is encoded here. */
const encodeArguments = (value: unknown) => (typeof value === "string" ? value : JSON.stringify(value ?? {}));

/**
 * The answer as the client's openai reader takes it (openai.ts parseResponse): the one message's content
 * or tool calls, and the usage. The reader builds the transcript's assistant message itself, so no
 * role or call type is written here.
 */
function answerBody(answer: InProcessResponse): string {
  const calls = answer.toolCalls ?? [];
  const message =
    calls.length > 0
      ? {
          tool_calls: calls.map((call, i) => ({
            // A model that names no call gets the position's name: every port says call_0, call_1, ...
            id: call.id ?? `call_${i}`,
            function: { name: call.name, arguments: encodeArguments(call.arguments) },
          })),
        }
      : { content: answer.content ?? "" };
  const usage = { prompt_tokens: answer.usage?.promptTokens ?? 0, completion_tokens: answer.usage?.completionTokens ?? 0 };
  return JSON.stringify({ choices: [{ message }], usage });
}

export function createInProcessClient(options: InProcessOptions): Client {
  const { generate, ...rest } = options;
  return createClient({
    ...rest,
    baseUrl: SENTINEL_BASE_URL,
    style: "openai",
    // Final whatever `retries` says (decision 49): what generate raised, it raises again.
    retries: 0,
    async fetch(_url, init) {
      const body = JSON.parse(init.body as string) as RequestBody;
      // generate returns a whole answer: a stream of it would be one chunk passed off as a stream.
      if (body.stream === true) throw new Error("an in-process client does not support streaming: generate returns a whole answer");
      const answer = await generate({
        messages: body.messages as Message[],
        tools: (body.tools as unknown[] | undefined) ?? [],
        model: body.model as string,
        body,
      });
      return new Response(answerBody(answer));
    },
  });
}
