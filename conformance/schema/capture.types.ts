// Generated from conformance/schema/capture.schema.json by scripts/gen-types.ts. Do not edit; run `npm run gen:types`.

import type { Provenance } from "./scenario.types.ts";
export type { Provenance };

/**
 * One LLM call as seen on the wire, with the client-side inputs that produced it. `npm run conformance -- import` turns it into a scenario. See fixtures/captured/README.md.
 */
export interface Capture {
  /**
   * Editor hint: the path of this schema.
   */
  $schema?: string;
  /**
   * The id of the scenario the import writes. New ids are the scenario's path under fixtures/scenarios without .yaml (captured/har/glm-chat).
   */
  id: string;
  title: string;
  description?: string;
  /**
   * SPEC.md clause ids this case checks, beyond the ones the import derives from its shape.
   */
  spec?: string[];
  tags?: string[];
  provenance: Provenance;
  /**
   * The client options (runners/PROTOCOL.md client.create) the call was made with.
   */
  client: {
    style: "openai" | "anthropic";
    model: string;
    systemPrompt?: string;
    maxTurns?: number;
    requestParams?: {};
    /**
     * The body transform as data: an RFC 6902 patch applied to the body it receives (or returnNull), on the turns listed in onTurns (0-based), on every request of the call when absent.
     */
    bodyTransform?: {
      patch?: PatchOp[];
      returnNull?: boolean;
      onTurns?: number[];
    };
  };
  /**
   * The toolkit's tools, as host-defined (extra) tools with fixed results.
   */
  toolkit?: {
    extraTools: {
      name: string;
      description?: string;
      inputSchema?: {};
      result?: {
        output: string;
        isError: boolean;
      };
    }[];
  };
  call: {
    prompt: string;
    /**
     * Wire-style messages before the prompt; a streamed exchange with history needs the capability client.stream-history.
     */
    history?: {}[];
  };
  /**
   * What the upstream answered, in order, as llm-mock replies (fixtures/llm-mock/README.md). Default: one reply {text: "ok"}.
   */
  upstream?: {
    /**
     * @minItems 1
     */
    replies: [{}, ...{}[]];
  };
  /**
   * The call as made, once per mode (run and/or stream), with the requests seen on the wire.
   *
   * @minItems 1
   * @maxItems 2
   */
  exchanges: [Exchange] | [Exchange, Exchange];
}
/**
 * This interface was referenced by `Capture`'s JSON-Schema
 * via the `definition` "patchOp".
 */
export interface PatchOp {
  op: "add" | "remove" | "replace" | "move" | "copy" | "test";
  path: string;
  from?: string;
  value?: unknown;
}
/**
 * This interface was referenced by `Capture`'s JSON-Schema
 * via the `definition` "exchange".
 */
export interface Exchange {
  stream: boolean;
  /**
   * LLM requests of the call (one per turn); only the ones listed are asserted.
   *
   * @minItems 1
   */
  requests: [Request, ...Request[]];
}
/**
 * This interface was referenced by `Capture`'s JSON-Schema
 * via the `definition` "request".
 */
export interface Request {
  /**
   * 0-based position of this request among the call's LLM requests (its turn); default: its position in the list.
   */
  index?: number;
  method: string;
  path: string;
  /**
   * As received (names compared case-insensitively); secrets are redacted on import.
   */
  headers: {
    [k: string]: string;
  };
  /**
   * The decoded JSON body.
   */
  body: unknown;
  /**
   * The body text exactly as received (for --exact).
   */
  raw?: string;
  /**
   * The body the body transform received for this request (the client-built body after the requestParams merge).
   */
  transformInput?: {};
}
