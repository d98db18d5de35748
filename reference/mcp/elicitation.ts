// The MCP elicitation bridge (SPEC.md mcp.elicitation.*): an `elicitation/create` a server sends during
// a tools/call becomes a Request to the host's waitFor, and the Answer becomes the elicitation's result,
// inline: the call the server is servicing resumes with it, and the tool is not run again.
import { randomUUID } from "node:crypto";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { ElicitRequestSchema, type ElicitRequest, type ElicitResult, type Implementation } from "@modelcontextprotocol/sdk/types.js";
import type { Answer, Request, WaitFor } from "../types.ts";

/** Form mode asks for input shaped by a schema; URL mode sends the user to a page (credentials never pass a form). */
export function elicitationToRequest(params: ElicitRequest["params"]): Request {
  const id = `elicitation-${randomUUID()}`;
  if (params.mode === "url") return { id, kind: "authorization", prompt: params.message, url: params.url };
  return { id, kind: "input", prompt: params.message, data: { schema: params.requestedSchema } };
}

/** ok: accept with the answer's data (none: `{}`); not ok: decline when the user declined, else cancel. */
export function answerToElicitResult(answer: Answer): ElicitResult {
  if (answer.ok) return { action: "accept", content: (answer.data ?? {}) as ElicitResult["content"] };
  return { action: answer.reason === "declined" ? "decline" : "cancel" };
}

/**
 * An MCP client that advertises elicitation, form and URL mode (decision 51), and answers it through
 * `waitFor`, only when there is one: without it a compliant server does not elicit at all.
 */
export function createMcpClient(info: Implementation, waitFor: WaitFor | undefined): Client {
  if (!waitFor) return new Client(info);
  const client = new Client(info, { capabilities: { elicitation: { form: {}, url: {} } } });
  client.setRequestHandler(ElicitRequestSchema, async (request) =>
    answerToElicitResult(await waitFor(elicitationToRequest(request.params))),
  );
  return client;
}
