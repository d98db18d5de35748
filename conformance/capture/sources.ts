// What `import` accepts, told apart by content (not by extension): a capture (JSON or YAML), a HAR
// 1.2 file, a raw HTTP/1.1 request dump, or a curl --trace-ascii file. Each becomes one or more
// unredacted capture objects; the caller redacts before validating, writing or printing anything.
import { createHash } from "node:crypto";
import { readFile } from "node:fs/promises";
import { basename, extname } from "node:path";
import { parse as parseYaml } from "yaml";
import { curlTraceCalls, looksLikeCurlTrace } from "./curl-trace.ts";
import { CLIENT_INPUT_KEYS, deriveCaptures, type ClientInputs, type ImportFormat } from "./derive.ts";
import { harCalls, looksLikeHar } from "./har.ts";
import { CaptureError } from "./load.ts";
import { looksLikeRawHttp, rawHttpCalls } from "./raw-http.ts";
import { jsonErrorLine, pathOf, type WireCall } from "./wire.ts";

export type SourceFormat = "capture" | ImportFormat;

export interface SourceOptions {
  /** Which HAR entries are LLM calls: POSTs whose URL matches a glob (`*` matches anything) or /REGEX/flags. */
  match?: string;
  /** Upstream replies (JSON or SSE text) for the captures whose last reply the input lacks, in order. */
  reply?: string[];
  /** A JSON file of client.create options (plus prompt, history) that replace the derived ones. */
  client?: string;
}

export interface SourceItem {
  /** The capture's name: its file name (and scenario file name) without extension. */
  name: string;
  data: unknown;
}

export interface Source {
  file: string;
  format: SourceFormat;
  items: SourceItem[];
  /** Values the captures do not hold but redaction must replace wherever they occur. */
  knownSecrets: string[];
  warnings: string[];
}

const LLM_PATH = /\/(chat\/completions|messages)$/;

/** The HAR entries to import: POSTs to an LLM endpoint, or POSTs whose whole URL --match matches. */
export function selector(match: string | undefined): (method: string, url: string) => boolean {
  if (!match) return (method, url) => method.toUpperCase() === "POST" && LLM_PATH.test(pathOf(url).replace(/[?#].*$/s, ""));
  const regex = /^\/(.+)\/([a-z]*)$/s.exec(match);
  let pattern: RegExp;
  try {
    pattern = regex
      ? new RegExp(regex[1]!, regex[2])
      : new RegExp(
          `^${match
            .replace(/[.+^${}()|[\]\\]/g, "\\$&")
            .replace(/\*/g, ".*")
            .replace(/\?/g, ".")}$`,
          "s",
        );
  } catch (error) {
    throw new CaptureError(`--match ${match}: not a valid regular expression (${error instanceof Error ? error.message : String(error)})`);
  }
  return (method, url) => method.toUpperCase() === "POST" && pattern.test(url);
}

/** A name a scenario id and file can carry: lower case, [a-z0-9.-]. */
export function safeName(name: string): string {
  return (
    name
      .toLowerCase()
      .replace(/[^a-z0-9.-]+/g, "-")
      .replace(/^[^a-z0-9]+|[^a-z0-9]+$/g, "") || "capture"
  );
}

async function readClientFile(path: string): Promise<ClientInputs> {
  const text = await readFile(path, "utf8");
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch (error) {
    throw new CaptureError(
      `--client ${path}: not valid JSON (${jsonErrorLine(text, error)}); expected client.create options {style, model, systemPrompt, requestParams, bodyTransform, ...}`,
    );
  }
  if (data === null || typeof data !== "object" || Array.isArray(data))
    throw new CaptureError(`--client ${path}: expected a JSON object of client.create options`);
  for (const key of Object.keys(data)) {
    if (!CLIENT_INPUT_KEYS.includes(key))
      throw new CaptureError(`--client ${path}: unknown key "${key}" (known: ${CLIENT_INPUT_KEYS.join(", ")})`);
  }
  return data as ClientInputs;
}

function detect(text: string, file: string): { format: SourceFormat; json?: unknown; curl?: boolean } {
  let json: unknown;
  let jsonError: unknown;
  try {
    json = JSON.parse(text);
  } catch (error) {
    jsonError = error;
  }
  if (jsonError === undefined) return { format: looksLikeHar(json) ? "har" : "capture", json };
  if (looksLikeCurlTrace(text)) return { format: "raw-http", curl: true };
  if (looksLikeRawHttp(text)) return { format: "raw-http" };
  if (/\.ya?ml$/i.test(file)) return { format: "capture" };
  if (/^\s*[[{]/.test(text))
    throw new CaptureError(`${file}: not valid JSON (${jsonErrorLine(text, jsonError)}); expected a capture or a HAR 1.2 file`);
  throw new CaptureError(
    `${file}:1: not an input import knows: expected a capture (JSON or YAML), a HAR 1.2 file ({"log": {"entries": [...]}}), ` +
      `a raw HTTP/1.1 request dump (METHOD TARGET HTTP/1.1, headers, blank line, body) or a curl --trace-ascii file`,
  );
}

export interface ReadContext {
  options: SourceOptions;
  /** The scenario id for a capture of this name from this file. */
  idFor: (file: string, name: string) => string;
  /** --reply texts not yet used (shared by every input of one import). */
  replies: string[];
  now: string;
}

export async function readSource(file: string, context: ReadContext): Promise<Source> {
  const bytes = await readFile(file);
  const text = bytes.toString("utf8");
  const detected = detect(text, file);
  if (detected.format === "capture") {
    let data = detected.json;
    if (data === undefined) {
      try {
        data = parseYaml(text);
      } catch {
        // The parser's message may quote the text (and so a secret): say where, not what.
        throw new CaptureError(`${file}: not valid YAML`);
      }
    }
    return { file, format: "capture", items: [{ name: basename(file, extname(file)), data }], knownSecrets: [], warnings: [] };
  }
  let calls: WireCall[];
  if (detected.format === "har") {
    calls = harCalls(detected.json, file, selector(context.options.match));
  } else {
    calls = detected.curl ? curlTraceCalls(text, file) : rawHttpCalls(bytes, file);
  }
  const name = safeName(basename(file, extname(file)));
  const derived = deriveCaptures(calls, {
    file,
    format: detected.format,
    sha256: createHash("sha256").update(bytes).digest("hex"),
    name,
    idFor: (itemName) => context.idFor(file, itemName),
    client: context.options.client ? await readClientFile(context.options.client) : undefined,
    now: context.now,
    replies: context.replies,
  });
  return {
    file,
    format: detected.format,
    items: derived.captures.map(({ name: itemName, capture }) => ({ name: itemName, data: capture })),
    knownSecrets: derived.knownSecrets,
    warnings: derived.warnings,
  };
}

export async function readReplies(files: string[] | undefined): Promise<string[]> {
  return Promise.all((files ?? []).map((file) => readFile(file, "utf8")));
}
