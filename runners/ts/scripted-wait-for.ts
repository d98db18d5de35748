// The waitFor a scenario scripts (runners/PROTOCOL.md, toolkit.create `waitFor`): the i-th call is answered
// with the i-th entry, after its delayMs, under the request's id; a call past the end is answered
// {ok: false, reason: "cancelled"}. Every Request is recorded as it was received.
import type { Answer, Request, WaitFor } from "../../reference/index.ts";

export interface WaitForScript {
  answers: { ok: boolean; data?: Record<string, unknown>; reason?: string; delayMs?: number }[];
}

export function scriptedWaitFor(script: WaitForScript, received: Request[]): WaitFor {
  return async (request) => {
    const entry = script.answers[received.length] ?? { ok: false, reason: "cancelled" };
    received.push(structuredClone(request));
    if (entry.delayMs) await new Promise((resolve) => setTimeout(resolve, entry.delayMs));
    const { delayMs: _delay, ...answer } = entry;
    return { id: request.id, ...structuredClone(answer) } satisfies Answer;
  };
}
