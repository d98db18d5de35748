// The unified LLM client of the reference (SPEC.md section 4).
export { createClient, DEFAULTS as CLIENT_DEFAULTS } from "./client.ts";
export { createMemoryStore } from "./store.ts";
export { createMetricsRegistry, DURATION_BUCKETS, type MetricEvent, type MetricsRegistry } from "./metrics.ts";
export { RESERVED_REQUEST_PARAMS } from "./body.ts";
export { RETRYABLE_STATUSES, retryAfterMs } from "./transport.ts";
export { readSseEvents, parseEventData } from "./sse.ts";
export { LLMCancelledError, LLMError, LLMHttpError, LLMNetworkError, LLMStreamError } from "./errors.ts";
export type * from "./types.ts";
export { createInProcessClient } from "./in-process.ts";
export type { InProcessOptions, InProcessRequest, InProcessResponse, InProcessToolCall } from "./in-process.ts";
