// Redaction of secrets in a capture before anything derived from it is written or printed. It fails
// closed: what is not known to be harmless is redacted.
//
// - Headers: only the values of SAFE_HEADERS (plus --keep-header) are kept; every other header, whatever
//   its name, loses its whole value.
// - URLs: every query-string and fragment value is replaced, in a request's path and in any URL inside
//   any string (names are kept: `?api-key=[REDACTED]`).
// - Keys named like credentials (SECRET_KEY_WORDS plus --secret-key; `x_api_key`, `sessionId`,
//   `password`, ...) lose their value anywhere (inputs, bodies, replies, a patch op writing to such a
//   key); an object or list under such a key loses every value inside it. The property names of a JSON
//   Schema (`properties: {token: {...}}`) name fields, not credentials, and are not taken for them.
// - Every other string has each match of each pattern replaced by REDACTED. A string that is compact
//   JSON (a tool call's `arguments`) is redacted inside and re-serialized, so the same secret redacts
//   the same way in a reply's args and on the wire.
// - Every value redacted above that is long enough to be recognized is then replaced wherever else it
//   occurs (a key in a URL also quoted in a prompt or in the provenance).
// - The raw body text is redacted as the body is, value by value, keeping every other byte, so the
//   byte-exact mode still matches what the redacted inputs make the client send.
// - Finally everything is checked again: if any pattern or any secret found still occurs, nothing is
//   returned (the caller must not write). Reports never name a secret, only where it was.
import { escapePointerToken, isRecord, unescapePointerToken } from "../common/json.ts";
import { rewriteJsonValues } from "./json-text.ts";
import { compilePatterns, REDACTED, SAFE_HEADERS, secretKeyTest } from "./redact-rules.ts";

/** Shorter redacted values are not searched for elsewhere: they would match innocent text. */
const MIN_SECRET_LENGTH = 8;

export interface RedactionResult<T> {
  value: T;
  /** JSON Pointers of the values that were changed (never the values). */
  redactedAt: string[];
}

export interface RedactOptions {
  /** More header names whose value is kept (case-insensitive), besides SAFE_HEADERS. */
  keepHeaders?: string[];
  /** More credential words for key names, besides SECRET_KEY_WORDS. */
  secretKeys?: string[];
  /**
   * Secret values from parts of the original input the capture does not keep (HAR cookies, response
   * headers, Set-Cookie): replaced wherever they occur, and checked for at the end like the others.
   */
  knownSecrets?: string[];
}

function isCompactJson(text: string): unknown {
  // Compact JSON has no leading whitespace: the first character tells an object or list.
  if (text[0] !== "{" && text[0] !== "[") return undefined;
  try {
    const parsed = JSON.parse(text);
    return JSON.stringify(parsed) === text ? parsed : undefined;
  } catch {
    return undefined;
  }
}

/** The forms a value takes in text: as is, inside a JSON string, inside JSON inside a JSON string. */
function textForms(secret: string): string[] {
  const once = JSON.stringify(secret).slice(1, -1);
  return [...new Set([secret, once, JSON.stringify(once).slice(1, -1)])];
}

// No word boundary before the scheme: `id_https://h/?key=...` holds a URL as much as ` https://...` does.
const URL_IN_TEXT = /[a-z][a-z0-9+.-]*:\/\/[^\s"'<>`]*/gi;

/** Replaces the value of every `name=value` (or bare `value`) of a URL's query and fragment. */
function redactUrlParameters(url: string, found: (value: string) => void): string {
  const parameters = (text: string) =>
    text
      .split("&")
      .map((piece) => {
        // No `=`: the whole piece is the value (indexOf gives -1, so the name is empty).
        const equals = piece.indexOf("=");
        const value = piece.slice(equals + 1);
        if (!value) return piece;
        found(value);
        return `${piece.slice(0, equals + 1)}${REDACTED}`;
      })
      .join("&");
  const hash = url.indexOf("#");
  const question = url.indexOf("?");
  // The query ends at the fragment; a `?` inside the fragment is the fragment's.
  const queryStart = hash < 0 || question < hash ? question : -1;
  const queryEnd = hash < 0 ? url.length : hash;
  const head = url.slice(0, queryStart >= 0 ? queryStart : queryEnd);
  const query = queryStart >= 0 ? `?${parameters(url.slice(queryStart + 1, queryEnd))}` : "";
  const fragment = hash >= 0 ? `#${parameters(url.slice(hash + 1))}` : "";
  return head + query + fragment;
}

const REQUEST_PATH = /^\/exchanges\/\d+\/requests\/\d+\/path$/;
const REQUEST_RAW = /^\/exchanges\/\d+\/requests\/\d+\/raw$/;

export function redact<T>(input: T, patternSources: string[], options: RedactOptions = {}): RedactionResult<T> {
  const patterns = compilePatterns(patternSources);
  const keptHeaders = new Set([...SAFE_HEADERS, ...(options.keepHeaders ?? []).map((name) => name.toLowerCase())]);
  const isSecretKey = secretKeyTest(options.secretKeys);
  const secrets = new Set<string>();
  let redactedAt = new Set<string>();

  // The placeholder is never a secret (a value already redacted, as in `Bearer [REDACTED]`, is no leak).
  const keep = (secret: string) => {
    if (secret.length >= MIN_SECRET_LENGTH && secret !== REDACTED) secrets.add(secret);
  };
  const remember = (secret: string) => {
    keep(secret);
    try {
      keep(decodeURIComponent(secret));
    } catch {
      // Malformed percent-encoding: the value as is was remembered.
    }
  };

  /** A value under a credential-named key (or header): gone whole, and searched for elsewhere. */
  const redactWhole = (node: unknown, pointer: string): unknown => {
    if (typeof node === "string") {
      if (node === REDACTED) return node;
      remember(node);
      // The token alone may appear elsewhere (e.g. in a raw body or a prompt).
      for (const part of node.split(/\s+/)) remember(part);
      redactedAt.add(pointer);
      return REDACTED;
    }
    if (typeof node === "number") {
      redactedAt.add(pointer);
      return REDACTED;
    }
    if (Array.isArray(node)) return node.map((item, index) => redactWhole(item, `${pointer}/${index}`));
    if (node !== null && typeof node === "object") {
      return Object.fromEntries(
        Object.entries(node).map(([key, value]) => [key, redactWhole(value, `${pointer}/${escapePointerToken(key)}`)]),
      );
    }
    return node;
  };

  const redactString = (text: string, pointer: string): string => {
    const json = isCompactJson(text);
    if (json !== undefined) {
      const inner = walk(json, pointer, undefined);
      return JSON.stringify(inner);
    }
    let out = text;
    for (const pattern of patterns) {
      out = out.replace(pattern, (match) => {
        remember(match);
        return REDACTED;
      });
    }
    out = REQUEST_PATH.test(pointer)
      ? redactUrlParameters(out, remember)
      : out.replace(URL_IN_TEXT, (url) => redactUrlParameters(url, remember));
    if (out !== text) redactedAt.add(pointer);
    return out;
  };

  const redactHeaders = (headers: object, pointer: string) =>
    Object.fromEntries(
      Object.entries(headers).map(([name, value]) => {
        const at = `${pointer}/${escapePointerToken(name)}`;
        if (!keptHeaders.has(name.toLowerCase())) return [name, redactWhole(value, at)];
        return [name, walk(value, at, name)];
      }),
    );

  const walk = (node: unknown, pointer: string, key: string | undefined): unknown => {
    if (typeof node === "string") return redactString(node, pointer);
    if (Array.isArray(node)) return node.map((item, index) => walk(item, `${pointer}/${index}`, undefined));
    if (node !== null && typeof node === "object") {
      // Under a JSON Schema's `properties`, keys name fields: `token: {type: string}` holds no secret.
      const keysNameSchemas = key === "properties";
      // An RFC 6902 op writes `value` at `path`: a credential's value if the path names one.
      const { op, path: patchPath } = node as { op?: unknown; path?: unknown };
      const patchWritesSecret =
        typeof op === "string" &&
        typeof patchPath === "string" &&
        patchPath.split("/").some((segment) => isSecretKey(unescapePointerToken(segment)));
      const out: Record<string, unknown> = {};
      for (const [childKey, value] of Object.entries(node)) {
        const childPointer = `${pointer}/${escapePointerToken(childKey)}`;
        if (typeof value === "string" && REQUEST_RAW.test(childPointer)) {
          // Raw texts are handled after the walk, once every secret is known.
          out[childKey] = value;
        } else if (childKey === "headers" && isRecord(value)) {
          out[childKey] = redactHeaders(value, childPointer);
        } else if ((isSecretKey(childKey) && !(keysNameSchemas && isRecord(value))) || (patchWritesSecret && childKey === "value")) {
          out[childKey] = redactWhole(value, childPointer);
        } else {
          out[childKey] = walk(value, childPointer, childKey);
        }
      }
      return out;
    }
    return node;
  };

  /** Raw body texts are redacted as their body: the same walk on the parsed text, written back value by value. */
  const redactRaw = (raw: string, pointer: string): string => {
    let parsed: unknown;
    try {
      parsed = JSON.parse(raw);
    } catch {
      // Nothing here may quote the text.
      throw new Error(`redaction impossible: the raw body at ${pointer} is not JSON; remove it (it is only needed for --exact)`);
    }
    const outer = redactedAt;
    redactedAt = new Set();
    const redacted = walk(parsed, pointer, undefined);
    const changed = redactedAt.size > 0;
    redactedAt = outer;
    if (changed) redactedAt.add(pointer);
    return rewriteJsonValues(raw, parsed, redacted);
  };

  const fixRaw = (node: unknown, pointer: string): unknown => {
    if (Array.isArray(node)) return node.map((item, index) => fixRaw(item, `${pointer}/${index}`));
    if (node === null || typeof node !== "object") return node;
    const out: Record<string, unknown> = {};
    for (const [key, value] of Object.entries(node)) {
      const at = `${pointer}/${escapePointerToken(key)}`;
      out[key] = typeof value === "string" && REQUEST_RAW.test(at) ? redactRaw(value, at) : fixRaw(value, at);
    }
    return out;
  };

  // Every secret found anywhere, replaced everywhere else, longest first, in plain and JSON-escaped form.
  const replaceSecrets = (node: unknown, pointer: string, ordered: string[]): unknown => {
    if (typeof node === "string") {
      let out = node;
      for (const secret of ordered) for (const form of textForms(secret)) out = out.split(form).join(REDACTED);
      if (out !== node) redactedAt.add(pointer);
      return out;
    }
    if (Array.isArray(node)) return node.map((item, index) => replaceSecrets(item, `${pointer}/${index}`, ordered));
    if (node !== null && typeof node === "object") {
      return Object.fromEntries(
        Object.entries(node).map(([key, value]) => [key, replaceSecrets(value, `${pointer}/${escapePointerToken(key)}`, ordered)]),
      );
    }
    return node;
  };

  for (const secret of options.knownSecrets ?? []) remember(secret);
  const walked = fixRaw(walk(input, "", undefined), "");
  const ordered = [...secrets].sort((a, b) => b.length - a.length);
  const value = replaceSecrets(walked, "", ordered) as T;

  const leftovers = findSecrets(value, patterns, ordered);
  if (leftovers.length)
    throw new Error(`redaction incomplete: a secret is still present at ${leftovers.join(", ")}; refusing to write anything`);
  return { value, redactedAt: [...redactedAt].sort() };
}

/** Pointers of the strings (or keys) that still match a pattern or contain a known secret. */
export function findSecrets(node: unknown, patterns: RegExp[], secrets: string[], pointer = ""): string[] {
  const forms = secrets.flatMap(textForms);
  const hit = (text: string) =>
    patterns.some((pattern) => new RegExp(pattern.source).test(text)) || forms.some((secret) => text.includes(secret));
  if (typeof node === "string") return hit(node) ? [pointer || "/"] : [];
  if (Array.isArray(node)) return node.flatMap((item, index) => findSecrets(item, patterns, secrets, `${pointer}/${index}`));
  if (node !== null && typeof node === "object") {
    return Object.entries(node).flatMap(([key, value]) => {
      // A secret key is named by its position, never spelled out.
      const segment = hit(key) ? `${REDACTED}` : escapePointerToken(key);
      return [...(hit(key) ? [`${pointer}/${segment} (a key)`] : []), ...findSecrets(value, patterns, secrets, `${pointer}/${segment}`)];
    });
  }
  return [];
}
