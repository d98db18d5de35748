// What a captured exchange lets its imported scenario claim, in toolnexus's terms: the SPEC.md clauses
// it checks and the capabilities a subject needs to run it (capture/to-scenario.ts writes them).
import type { Capture } from "../schema/capture.types.ts";

/** The SPEC clauses a capture's shape lets its scenario claim. */
export function derivedClauses(capture: Capture): string[] {
  const clauses = new Set<string>();
  const style = capture.client.style;
  const requests = capture.exchanges.flatMap((exchange) => exchange.requests);
  const hasTransform = Boolean(capture.client.bodyTransform);
  if (capture.client.requestParams && Object.keys(capture.client.requestParams).length) clauses.add("client.request-params.merge");
  if (hasTransform) clauses.add("client.body-transform.verbatim").add("client.body-order");
  if (requests.some((request) => request.transformInput)) clauses.add("client.body-transform.input");
  if ((capture.client.requestParams || hasTransform) && capture.exchanges.length > 1) clauses.add("client.request-params.all-paths");
  if (requests.some((request) => (request.index ?? 0) > 0)) {
    clauses.add(style === "openai" ? "client.loop.openai-results" : "client.loop.anthropic-results");
    if (hasTransform || capture.client.requestParams) clauses.add("client.request-params.all-paths");
  }
  if (style === "openai") clauses.add("client.wire.openai-schema");
  const toolsSent = requests.some((request) => {
    const body = request.body as Record<string, unknown> | null;
    return body && typeof body === "object" && Array.isArray(body.tools) && body.tools.length > 0;
  });
  if (toolsSent && !hasTransform) clauses.add("client.tools.present");
  if (!capture.client.requestParams && !hasTransform)
    clauses.add("client.body.baseline").add(style === "openai" ? "client.body.openai" : "client.body.anthropic");
  for (const clause of capture.spec ?? []) clauses.add(clause);
  return [...clauses];
}

export function derivedRequires(capture: Capture): string[] {
  const requires: string[] = [];
  if (capture.client.requestParams) requires.push("client.request-params");
  if (capture.client.bodyTransform) requires.push("client.body-transform");
  if (capture.toolkit) requires.push("toolkit.extra-tools");
  // Most ports' stream call takes no prior messages: those are skipped, not failed.
  if (capture.call.history && capture.exchanges.some((exchange) => exchange.stream)) requires.push("client.stream-history");
  return requires;
}
