// Request body shaping (SPEC.md client.body-order): base body -> beforeLLM (done by the loop before
// the base body is built) -> requestParams merge -> bodyTransform -> serialize.
import type { Logger } from "../types.ts";
import type { BodyTransform, RequestBody } from "./types.ts";

/** Keys the client owns: rewriting them is the body transform's job (SPEC.md client.request-params.reserved). */
export const RESERVED_REQUEST_PARAMS = ["messages", "tools", "stream"] as const;

/** Drop the reserved keys, warning once per key, so every request can merge the rest as is. */
export function acceptedRequestParams(params: Record<string, unknown> | undefined, logger: Logger): Record<string, unknown> {
  const accepted: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(params ?? {})) {
    if ((RESERVED_REQUEST_PARAMS as readonly string[]).includes(key)) {
      logger.warn(`requestParams key "${key}" is reserved by the client and was dropped; use bodyTransform to rewrite it`);
      continue;
    }
    accepted[key] = value;
  }
  return accepted;
}

/**
 * Merge the params over the base body (caller wins) and run the transform; returns the text to send.
 * The params are cloned per request: the transform owns the body and may mutate nested values.
 */
export async function finalizeBody(
  base: RequestBody,
  params: Record<string, unknown>,
  transform: BodyTransform | undefined,
): Promise<string> {
  const merged: RequestBody = { ...base, ...structuredClone(params) };
  const sent = transform ? ((await transform(merged)) ?? merged) : merged;
  return JSON.stringify(sent);
}
