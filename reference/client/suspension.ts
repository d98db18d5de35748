// Suspension (SPEC.md client.suspension.*): a tool result whose metadata.pending is a Request waits on
// the host. With a waitFor the client asks it and retries the tool once; without one the run halts.
import type { Request, ToolContext, ToolResult, WaitFor } from "../types.ts";

/** The Request a result suspends on, if it is a suspension (client.suspension.request). */
export function pendingOf(result: ToolResult): Request | undefined {
  return result.metadata?.pending as Request | undefined;
}

/** What a suspension comes to: the result the model is given, and the Request when the run must halt. */
export interface Resolution {
  result: ToolResult;
  halted?: Request;
}

/**
 * Resolve one suspension. `retry` executes the same tool with the same arguments once more, the
 * Answer in its context. The prompt in every message is the first request's: the one the host saw.
 */
export async function resolveSuspension(
  request: Request,
  waitFor: WaitFor | undefined,
  retry: (context: ToolContext) => Promise<ToolResult>,
): Promise<Resolution> {
  // The placeholder a halted run leaves in the transcript (client.suspension.halt-transcript).
  if (!waitFor) return { result: { output: request.prompt, isError: true }, halted: request };
  const answer = await waitFor(request);
  if (!answer.ok) return { result: { output: `declined/expired: ${request.prompt}`, isError: true } };
  const retried = await retry({ answer });
  // One retry only: a tool that suspends again would otherwise loop on the host for ever.
  return { result: pendingOf(retried) ? { output: `unresolved: ${request.prompt}`, isError: true } : retried };
}
