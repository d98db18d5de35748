// The body the reference client would send, and what a captured body has beyond it: the one model of
// the client's body that import (derive.ts) and the recording proxy (proxy-capture.ts) read wire
// bodies against. It is the reference's own code (reference/client/openai.ts and anthropic.ts
// baseBody, body.ts's reserved keys), not a restatement of it, so the two cannot drift.
import { isDeepStrictEqual } from "node:util";
import { anthropicStyle } from "../../reference/client/anthropic.ts";
import { RESERVED_REQUEST_PARAMS } from "../../reference/client/body.ts";
import { openaiStyle } from "../../reference/client/openai.ts";
import type { BaseBodyInput } from "../../reference/client/style.ts";
import type { Style } from "../../reference/client/types.ts";

export type { Style };

/** The client's own keys: requestParams may not set them, only a body transform may rewrite them. */
export const RESERVED: readonly string[] = RESERVED_REQUEST_PARAMS;

/** The body the client builds before requestParams and the body transform. */
export function baseBody(style: Style, input: BaseBodyInput): Record<string, unknown> {
  return (style === "anthropic" ? anthropicStyle : openaiStyle).baseBody(input);
}

export interface BodyBeyondBase {
  /** Keys the client does not own whose value the base body lacks or holds otherwise: requestParams. */
  params: Record<string, unknown>;
  /** Client-owned keys (RESERVED) the body holds otherwise: only a body transform makes them so. */
  reservedDiffering: string[];
  /** Keys of the base body the captured body lacks. */
  missing: string[];
}

/** Compares a captured body with the base body, key by key (deep equality, key order ignored). */
export function bodyBeyondBase(body: Record<string, unknown>, base: Record<string, unknown>): BodyBeyondBase {
  const params: Record<string, unknown> = {};
  const reservedDiffering: string[] = [];
  for (const [key, value] of Object.entries(body)) {
    if (isDeepStrictEqual(base[key], value)) continue;
    if (RESERVED.includes(key)) reservedDiffering.push(key);
    else params[key] = value;
  }
  return { params, reservedDiffering, missing: Object.keys(base).filter((key) => !(key in body)) };
}
