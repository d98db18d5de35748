// HAR 1.2 (browsers' devtools, mitmproxy, Charles, Proxyman): the entries a selector picks, as wire
// calls. Request bodies come from request.postData.text, responses from response.content.text (base64
// when content.encoding says so). Cookies, query arrays and credential-named response headers are not
// kept, but their values are handed to redaction so they cannot survive anywhere else.
import { headerRecord, type WireCall } from "./wire.ts";
import { secretKeyTest } from "./redact-rules.ts";
import { isRecord } from "../common/json.ts";

interface HarPair {
  name?: unknown;
  value?: unknown;
}

export class HarError extends Error {}

/** A HAR by content: `{log: {entries: [...]}}` (the version is not insisted on: exporters vary). */
export function looksLikeHar(data: unknown): boolean {
  return isRecord(data) && isRecord(data.log) && Array.isArray(data.log.entries);
}

const pairs = (list: unknown): [string, string][] =>
  Array.isArray(list) ? list.filter(isRecord).map((pair: HarPair) => [String(pair.name ?? ""), String(pair.value ?? "")]) : [];

function decode(text: string, encoding: unknown): string {
  return encoding === "base64" ? Buffer.from(text, "base64").toString("utf8") : text;
}

/** The value of each cookie of a Cookie or Set-Cookie header. */
export function cookieValues(header: string, setCookie: boolean): string[] {
  const pieces = setCookie ? [header.split(";")[0]!] : header.split(";");
  return pieces.map((piece) => piece.slice(piece.indexOf("=") + 1).trim()).filter(Boolean);
}

const credentialHeader = secretKeyTest();

/**
 * The entries of `har` that `select` picks (by method and URL), as wire calls. `file` names the input
 * in messages, which say which entry and which field, never a value.
 */
export function harCalls(har: unknown, file: string, select: (method: string, url: string) => boolean): WireCall[] {
  if (!looksLikeHar(har)) throw new HarError(`${file}: not a HAR file: expected {"log": {"entries": [...]}}`);
  const entries = (har as { log: { entries: unknown[] } }).log.entries;
  const calls: WireCall[] = [];
  entries.forEach((entry, index) => {
    const where = `entry ${index + 1}`;
    const pointer = `/log/entries/${index}`;
    if (!isRecord(entry) || !isRecord(entry.request))
      throw new HarError(`${file}: ${where} (${pointer}): expected an object with a "request" object`);
    const request = entry.request;
    if (typeof request.method !== "string" || typeof request.url !== "string") {
      throw new HarError(`${file}: ${where} (${pointer}/request): expected string "method" and "url"`);
    }
    if (!select(request.method, request.url)) return;
    const postData = request.postData;
    if (!isRecord(postData) || typeof postData.text !== "string") {
      throw new HarError(
        `${file}: ${where} (${pointer}/request/postData/text): an LLM call needs its request body; this entry has none (exported without content?)`,
      );
    }
    const headers = headerRecord(pairs(request.headers));
    const droppedSecrets = [...pairs(request.cookies).map(([, value]) => value), ...pairs(request.queryString).map(([, value]) => value)];
    const response = isRecord(entry.response) ? entry.response : undefined;
    for (const [name, value] of pairs(response?.headers)) {
      if (name.toLowerCase() === "set-cookie") droppedSecrets.push(value, ...cookieValues(value, true));
      else if (credentialHeader(name)) droppedSecrets.push(value);
    }
    droppedSecrets.push(...pairs(response?.cookies).map(([, value]) => value));
    for (const [name, value] of Object.entries(headers))
      if (name.toLowerCase() === "cookie") droppedSecrets.push(...cookieValues(value, false));
    const content = isRecord(response?.content) ? response!.content : undefined;
    calls.push({
      method: request.method,
      url: request.url,
      headers,
      body: decode(postData.text, postData.encoding),
      response: response && {
        status: typeof response.status === "number" ? response.status : undefined,
        contentType: typeof content?.mimeType === "string" ? content.mimeType : undefined,
        text: typeof content?.text === "string" ? decode(content.text, content.encoding) : undefined,
      },
      startedAt: typeof entry.startedDateTime === "string" ? entry.startedDateTime : undefined,
      where,
      droppedSecrets: droppedSecrets.filter(Boolean),
    });
  });
  return calls;
}
