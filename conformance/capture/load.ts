// Reading and validating capture files (conformance/schema/capture.schema.json), JSON or YAML.
import { readFile } from "node:fs/promises";
import { createRequire } from "node:module";
import { parse } from "yaml";
import { compileSchema } from "../../runners/protocol/json-schema.ts";
import type { Capture } from "../schema/capture.types.ts";
import { describeSchemaError, schemaErrorLine } from "../common/schema-error.ts";

export type { Capture };

const require = createRequire(import.meta.url);
export const captureSchema = require("../schema/capture.schema.json");

// Its provenance is the scenario schema's (one definition for both).
export const validateCaptureSchema = compileSchema<Capture>(captureSchema, require("../schema/scenario.schema.json"));

export class CaptureError extends Error {}

/** Schema problems and the rules the schema cannot say, as "FILE: /pointer: message" lines. */
export function captureProblems(file: string, data: unknown): string[] {
  if (!validateCaptureSchema(data)) {
    return (validateCaptureSchema.errors ?? []).map(
      (error) => `${file}: ${error.instancePath || "(top level)"}: ${schemaErrorLine(describeSchemaError(error))}`,
    );
  }
  const capture = data as Capture;
  const problems: string[] = [];
  const modes = capture.exchanges.map((exchange) => exchange.stream);
  if (new Set(modes).size !== modes.length) problems.push(`${file}: /exchanges: at most one exchange per mode (one run, one stream)`);
  capture.exchanges.forEach((exchange, e) => {
    const indices = exchange.requests.map((request, position) => request.index ?? position);
    if (new Set(indices).size !== indices.length) problems.push(`${file}: /exchanges/${e}/requests: two requests with the same index`);
    const replies = capture.upstream?.replies.length ?? 1;
    for (const index of indices) {
      if (index >= replies)
        problems.push(`${file}: /exchanges/${e}/requests: request ${index} needs at least ${index + 1} upstream replies, found ${replies}`);
    }
    exchange.requests.forEach((request, r) => {
      if (request.transformInput && !capture.client.bodyTransform) {
        problems.push(`${file}: /exchanges/${e}/requests/${r}/transformInput: the client has no bodyTransform`);
      }
    });
  });
  return problems;
}

/** Parse without validating (redaction comes first, so that no message can show a secret). */
export async function readCaptureData(path: string): Promise<unknown> {
  const text = await readFile(path, "utf8");
  try {
    return /\.json$/i.test(path) ? JSON.parse(text) : parse(text);
  } catch {
    // The parser's message may quote the text (and so a secret): say where, not what.
    throw new CaptureError(`${path}: not valid ${/\.json$/i.test(path) ? "JSON" : "YAML"}`);
  }
}
