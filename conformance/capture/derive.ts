// Wire calls -> captures: each tool loop (import-loops.ts) one multi-turn capture. The client
// inputs are read back from the first request's body: prompt, history, system prompt and tools
// exactly; requestParams (and a body transform for keys the client adds but the wire lacks) by
// comparing the body with the base body the client would build (client-body.ts: the reference's own),
// unless `--client FILE` supplies them.
import type { Capture, PatchOp } from "../schema/capture.types.ts";
import { baseBody, bodyBeyondBase, type Style } from "./client-body.ts";
import { callInputsOf, toolsOf } from "./client-inputs.ts";
import { added, chainCalls, DeriveError, parse, type Body, type Parsed } from "./import-loops.ts";
import { looksLikeSse, replyFromAssistant, replyFromResponse, type MockReply } from "./reply.ts";
import { hostOf, pathOf, type WireCall } from "./wire.ts";
import { pathToPointer } from "../common/json.ts";

export type ImportFormat = "har" | "raw-http";

/** `--client FILE`: client.create options, plus the call's prompt and history when a transform hides them. */
export interface ClientInputs {
  style?: Style;
  model?: string;
  systemPrompt?: string;
  maxTurns?: number;
  requestParams?: Record<string, unknown>;
  bodyTransform?: { patch?: PatchOp[]; returnNull?: boolean };
  prompt?: string;
  history?: Record<string, unknown>[];
}
export const CLIENT_INPUT_KEYS = ["style", "model", "systemPrompt", "maxTurns", "requestParams", "bodyTransform", "prompt", "history"];

export interface DeriveOptions {
  file: string;
  format: ImportFormat;
  sha256: string;
  /** The scenario id for the capture with this name. */
  idFor: (name: string) => string;
  /** The file's base name: the capture's name, with -N when it holds several. */
  name: string;
  client?: ClientInputs;
  /** When the input says nothing about when (raw HTTP): the import's time. */
  now: string;
  /**
   * --reply texts (JSON or SSE), taken in order by the captures whose last reply the input does not
   * show (a raw request has none; a chained request's reply is the next request's assistant message).
   */
  replies?: string[];
}

/** How the client renders a toolkit's tools (reference/toolkit/adapters.ts). */
function renderTools(style: Style, tools: { name: string; description?: string; inputSchema?: object }[]): Body[] {
  return style === "openai"
    ? tools.map((tool) => ({
        type: "function",
        function: { name: tool.name, description: tool.description, parameters: tool.inputSchema },
      }))
    : tools.map((tool) => ({ name: tool.name, description: tool.description, input_schema: tool.inputSchema }));
}

/** Each tool's fixed result, from the tool results the later turns carried. */
function toolResults(loop: Parsed[], file: string): Map<string, { output: string; isError: boolean; where: string }> {
  const results = new Map<string, { output: string; isError: boolean; where: string }>();
  for (let turn = 1; turn < loop.length; turn++) {
    const turns = added(loop[turn - 1]!, loop[turn]!)!;
    const names = new Map(replyFromAssistant(loop[turn]!.style, turns.assistant).toolCalls?.map((call) => [call.id, call.name]) ?? []);
    const answers =
      loop[turn]!.style === "openai"
        ? turns.rest.map((message) => ({ id: message.tool_call_id, content: message.content, isError: false }))
        : (turns.rest[0]!.content as Body[]).map((block) => ({
            id: block.tool_use_id,
            content: block.content,
            isError: block.is_error === true,
          }));
    for (const answer of answers) {
      const name = names.get(String(answer.id));
      if (!name)
        throw new DeriveError(`${file}: ${loop[turn]!.call.where}: a tool result answers a call id the assistant message does not have`);
      if (typeof answer.content !== "string")
        throw new DeriveError(
          `${file}: ${loop[turn]!.call.where}: the result of tool "${name}" is not a string; a replay's tool result is text`,
        );
      const result = { output: answer.content, isError: answer.isError, where: loop[turn]!.call.where };
      const earlier = results.get(name);
      if (earlier && (earlier.output !== result.output || earlier.isError !== result.isError)) {
        throw new DeriveError(
          `${file}: tool "${name}" answered differently in ${earlier.where} and ${result.where}; a capture holds one fixed result per tool (import the entries separately with --match)`,
        );
      }
      results.set(name, result);
    }
  }
  return results;
}

/** Prompt, history and system prompt, read from the first request (client-inputs.ts), unless `--client FILE` gives the prompt. */
function clientInputs(
  first: Parsed,
  file: string,
  supplied: ClientInputs | undefined,
): { systemPrompt?: string; prompt: string; history?: Body[] } {
  if (supplied?.prompt !== undefined) return { prompt: supplied.prompt, history: supplied.history, systemPrompt: supplied.systemPrompt };
  const { prompt, history, systemPrompt } = callInputsOf(first.style, first.body);
  if (prompt === undefined) {
    throw new DeriveError(
      `${file}: ${first.call.where}: the last message of the first request is not a user message with text content, so the prompt cannot be read from it (give it with --client FILE: {"prompt": ...})`,
    );
  }
  return { prompt, systemPrompt: supplied?.systemPrompt ?? systemPrompt, history };
}

/** "entry 3", "entry 5" -> "entries 3 and 5". */
function placesOf(places: string[]): string {
  if (places.length === 1) return places[0]!;
  const [kind] = places[0]!.split(" ");
  const numbers = places.map((place) => place.split(" ")[1]);
  return `${kind === "entry" ? "entries" : `${kind}s`} ${numbers.slice(0, -1).join(", ")} and ${numbers[numbers.length - 1]}`;
}

/** api.scaleway.ai -> scaleway; nothing for loopback, addresses and reserved test domains. */
function providerOf(host: string | undefined): string | undefined {
  const name = host?.replace(/:\d+$/, "").toLowerCase();
  if (!name || /^[\d.]+$|^\[|(^|\.)(localhost|test|example|invalid|local|internal)$/.test(name)) return undefined;
  return name.split(".").slice(-2, -1)[0];
}

export interface Derived {
  captures: { name: string; capture: Capture }[];
  warnings: string[];
  knownSecrets: string[];
}

export function deriveCaptures(calls: WireCall[], options: DeriveOptions): Derived {
  const { file } = options;
  const warnings: string[] = [];
  const parsed: Parsed[] = [];
  for (const call of calls) {
    if (call.response?.status !== undefined && call.response.status >= 400) {
      warnings.push(
        `${file}: ${call.where}: skipped: the upstream answered ${call.response.status} (an error exchange is not replayed as a capture)`,
      );
      continue;
    }
    parsed.push(parse(call, file));
  }
  if (!parsed.length) throw new DeriveError(`${file}: no LLM call to import (selected by path /chat/completions or /messages, or --match)`);
  const loops = chainCalls(parsed);
  const captures: Derived["captures"] = [];
  loops.forEach((loop, loopIndex) => {
    const name = loops.length > 1 ? `${options.name}-${loopIndex + 1}` : options.name;
    const first = loop[0]!;
    const stream = first.body.stream === true;
    const inputs = clientInputs(first, file, options.client);
    const style = options.client?.style ?? first.style;
    const model = options.client?.model ?? (first.body.model as string);
    const tools = toolsOf(first.style, first.body);
    const results = toolResults(loop, file);
    const derived: string[] = [];
    const notes: string[] = [];

    let requestParams: Record<string, unknown> | undefined;
    let bodyTransform: ClientInputs["bodyTransform"];
    if (options.client) {
      requestParams = options.client.requestParams;
      bodyTransform = options.client.bodyTransform;
    } else {
      // JSON round trip: an undefined description is absent on the wire, as the client serializes it.
      const sentTools = JSON.parse(JSON.stringify(renderTools(style, tools)));
      const base = baseBody(style, { model, systemPrompt: inputs.systemPrompt ?? "", messages: first.messages, tools: sentTools, stream });
      const { params, reservedDiffering, missing } = bodyBeyondBase(first.body, base);
      const patch: PatchOp[] = [
        ...reservedDiffering.map((key): PatchOp => ({ op: "add", path: pathToPointer([key]), value: first.body[key] })),
        ...missing.map((key): PatchOp => ({ op: "remove", path: pathToPointer([key]) })),
      ];
      if (Object.keys(params).length) {
        requestParams = params;
        derived.push("requestParams");
        notes.push(
          `The body's keys the client's base body would not send (${Object.keys(params).join(", ")}) are derived as requestParams; --client FILE gives them exactly`,
        );
      }
      if (patch.length) {
        bodyTransform = { patch };
        derived.push("bodyTransform");
        notes.push(
          `A derived body transform (${patch.map((op) => `${op.op} ${op.path}`).join(", ")}) makes the client's body match the wire's`,
        );
      }
    }

    const replies: MockReply[] = [];
    for (let turn = 0; turn < loop.length; turn++) {
      let response = loop[turn]!.call.response;
      let replyFile = false;
      if (turn === loop.length - 1 && !response?.text && options.replies?.length) {
        const given = options.replies.shift()!;
        response = { text: given, contentType: looksLikeSse(given) ? "text/event-stream" : "application/json" };
        replyFile = true;
      }
      const answered =
        response?.text !== undefined && response.text !== "" ? replyFromResponse(style, response.text, response.contentType) : undefined;
      if (turn < loop.length - 1) {
        // What the client echoed next is what the replay must make it echo: the next request's assistant message.
        replies.push({
          ...replyFromAssistant(style, added(loop[turn]!, loop[turn + 1]!)!.assistant),
          ...(answered?.usage ? { usage: answered.usage } : {}),
        });
      } else if (replyFile && !answered) {
        throw new DeriveError(
          `${file}: ${loop[turn]!.call.where}: the --reply file given for it is neither ${style} JSON nor ${style} SSE`,
        );
      } else if (answered) {
        if (answered.toolCalls?.length) {
          const { toolCalls: _calls, ...rest } = answered;
          replies.push({ ...rest, text: rest.text ?? "" });
          notes.push("The last reply asked for tool calls that no captured request answers: the replay answers with its text only");
          derived.push("upstream.replies");
        } else replies.push(answered);
      } else {
        replies.push({ text: "ok" });
        derived.push("upstream.replies");
        notes.push(`The upstream's last reply is not in the input: the replay answers a minimal ${style} reply ({text: "ok"})`);
      }
    }

    const host = hostOf(first.call.url, first.call.headers);
    const provider = providerOf(host);
    const endpoint = pathOf(first.call.url).replace(/[?#].*$/s, "");
    const turns = loop.length === 1 ? "1 turn" : `${loop.length} turns`;
    const where = placesOf(loop.map((turn) => turn.call.where));
    const capture: Capture = {
      id: options.idFor(name),
      title: `${style} ${stream ? "stream" : "run"} call to ${endpoint} (${turns}), imported from ${options.format === "har" ? "a HAR file" : "a raw HTTP dump"}`,
      description: [`Imported from ${file.replace(/^.*\//, "")} (${where}).`, ...notes.map((note) => `${note}.`)].join(" "),
      provenance: {
        source: `${options.format === "har" ? "HAR" : "raw HTTP"} ${file.replace(/^.*\//, "")}, ${where}${host ? ` (${host})` : ""}`,
        ...(provider ? { provider } : {}),
        kind: "captured",
        format: options.format,
        capturedAt: first.call.startedAt ?? options.now,
        originalSha256: options.sha256,
        ...(derived.length ? { derived: [...new Set(derived)] } : {}),
      },
      client: {
        style,
        model,
        ...(inputs.systemPrompt !== undefined ? { systemPrompt: inputs.systemPrompt } : {}),
        ...(options.client?.maxTurns !== undefined
          ? { maxTurns: options.client.maxTurns }
          : loop.length > 10
            ? { maxTurns: loop.length }
            : {}),
        ...(requestParams && Object.keys(requestParams).length ? { requestParams } : {}),
        ...(bodyTransform ? { bodyTransform } : {}),
      },
      ...(tools.length
        ? {
            toolkit: {
              extraTools: tools.map((tool) => {
                const result = results.get(tool.name);
                return { ...tool, ...(result ? { result: { output: result.output, isError: result.isError } } : {}) };
              }),
            },
          }
        : {}),
      call: { prompt: inputs.prompt, ...(inputs.history?.length ? { history: inputs.history } : {}) },
      upstream: { replies: replies as [Record<string, unknown>, ...Record<string, unknown>[]] },
      exchanges: [
        {
          stream,
          requests: loop.map((turn) => ({
            method: turn.call.method.toUpperCase(),
            path: pathOf(turn.call.url),
            headers: turn.call.headers,
            body: turn.body,
            raw: turn.call.body,
          })) as [Capture["exchanges"][0]["requests"][0]],
        },
      ],
    };
    captures.push({ name, capture });
  });
  return { captures, warnings, knownSecrets: calls.flatMap((call) => call.droppedSecrets) };
}
