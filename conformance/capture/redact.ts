// Redaction of secrets in a capture before anything derived from it is written or printed.
//
// - Headers named like credentials (authorization, x-api-key, ...) lose their whole value.
// - Every other string (header values, bodies, inputs, replies) has each match of each pattern
//   replaced by REDACTED. A string that is compact JSON (a tool call's `arguments`) is redacted inside
//   and re-serialized, so the same secret redacts the same way in a reply's args and on the wire.
// - The raw body text has every secret found above replaced in its JSON-escaped form, so the
//   byte-exact mode still matches what the redacted inputs make the client send.
// - Finally everything is checked again: if any pattern or any secret found still occurs, nothing is
//   returned (the caller must not write). Reports never name a secret, only where it was.
import { readFile } from "node:fs/promises";
import { fileURLToPath } from "node:url";

export const REDACTED = "[REDACTED]";

/** Header names whose value is a credential, whatever it looks like (lower case). */
export const SECRET_HEADERS = ["authorization", "proxy-authorization", "x-api-key", "api-key", "x-goog-api-key", "cookie", "set-cookie"];

/** Used when no pattern file is given; `fixtures/captured/redact-patterns.txt` holds the same list. */
export const DEFAULT_PATTERNS = [
  String.raw`sk-[A-Za-z0-9_-]{10,}`,
  String.raw`Bearer\s+\S+`,
  String.raw`AKIA[0-9A-Z]{16}`,
  String.raw`gh[pousr]_[A-Za-z0-9]{20,}`,
  String.raw`xox[abpr]-[A-Za-z0-9-]{10,}`,
  String.raw`AIza[0-9A-Za-z_-]{30,}`,
];

export const defaultPatternFile = fileURLToPath(new URL("../../fixtures/captured/redact-patterns.txt", import.meta.url));

/** One regular expression per non-blank line; `#` starts a comment line. */
export async function readPatternFile(path: string): Promise<string[]> {
  const text = await readFile(path, "utf8");
  return text
    .split("\n")
    .map((line) => line.trim())
    .filter((line) => line && !line.startsWith("#"));
}

export function compilePatterns(sources: string[]): RegExp[] {
  return sources.map((source) => {
    try {
      const pattern = new RegExp(source, "g");
      if (pattern.test("")) throw new Error("it matches the empty string");
      return pattern;
    } catch (error) {
      throw new Error(`bad redact pattern /${source}/: ${error instanceof Error ? error.message : String(error)}`);
    }
  });
}

export interface RedactionResult<T> {
  value: T;
  /** JSON Pointers of the values that were changed (never the values). */
  redactedAt: string[];
}

const escapeKey = (key: string | number) => String(key).replace(/~/g, "~0").replace(/\//g, "~1");

function isCompactJson(text: string): unknown {
  const first = text.trimStart()[0];
  if (first !== "{" && first !== "[") return undefined;
  try {
    const parsed = JSON.parse(text);
    return JSON.stringify(parsed) === text ? parsed : undefined;
  } catch {
    return undefined;
  }
}

export function redact<T>(input: T, patternSources: string[]): RedactionResult<T> {
  const patterns = compilePatterns(patternSources);
  const secrets = new Set<string>();
  const redactedAt = new Set<string>();

  const redactString = (text: string, pointer: string): string => {
    const json = isCompactJson(text);
    if (json !== undefined) {
      const inner = walk(json, pointer, undefined);
      return JSON.stringify(inner);
    }
    let out = text;
    for (const pattern of patterns) {
      out = out.replace(pattern, (match) => {
        secrets.add(match);
        return REDACTED;
      });
    }
    if (out !== text) redactedAt.add(pointer);
    return out;
  };

  const walk = (node: unknown, pointer: string, key: string | undefined, inHeaders = false): unknown => {
    if (typeof node === "string") {
      if (inHeaders && key !== undefined && SECRET_HEADERS.includes(key.toLowerCase())) {
        if (node !== REDACTED) {
          secrets.add(node);
          // The token alone may appear elsewhere (e.g. in a raw body or a prompt).
          for (const part of node.split(/\s+/)) if (part.length >= 8) secrets.add(part);
          redactedAt.add(pointer);
        }
        return REDACTED;
      }
      return redactString(node, pointer);
    }
    if (Array.isArray(node)) return node.map((item, index) => walk(item, `${pointer}/${index}`, undefined));
    if (node !== null && typeof node === "object") {
      const out: Record<string, unknown> = {};
      for (const [childKey, value] of Object.entries(node)) {
        const childPointer = `${pointer}/${escapeKey(childKey)}`;
        if (childKey === "raw" && typeof value === "string") {
          // Raw texts are handled after the walk, once every secret is known.
          out[childKey] = value;
        } else if (childKey === "headers" && value !== null && typeof value === "object" && !Array.isArray(value)) {
          out[childKey] = Object.fromEntries(
            Object.entries(value).map(([name, headerValue]) => [name, walk(headerValue, `${childPointer}/${escapeKey(name)}`, name, true)]),
          );
        } else {
          out[childKey] = walk(value, childPointer, childKey);
        }
      }
      return out;
    }
    return node;
  };

  const walked = walk(input, "", undefined);
  // Redact the raw texts with every secret found anywhere, longest first, in plain and JSON-escaped form.
  const ordered = [...secrets].sort((a, b) => b.length - a.length);
  const fixRaw = (node: unknown, pointer: string): unknown => {
    if (Array.isArray(node)) return node.map((item, index) => fixRaw(item, `${pointer}/${index}`));
    if (node === null || typeof node !== "object") return node;
    const out: Record<string, unknown> = {};
    for (const [key, value] of Object.entries(node)) {
      if (key === "raw" && typeof value === "string") {
        let raw = value;
        for (const secret of ordered) {
          raw = raw.split(JSON.stringify(secret).slice(1, -1)).join(REDACTED).split(secret).join(REDACTED);
        }
        for (const pattern of patterns) raw = raw.replace(pattern, REDACTED);
        if (raw !== value) redactedAt.add(`${pointer}/raw`);
        out[key] = raw;
      } else out[key] = fixRaw(value, `${pointer}/${escapeKey(key)}`);
    }
    return out;
  };
  const value = fixRaw(walked, "") as T;

  const leftovers = findSecrets(value, patterns, ordered);
  if (leftovers.length) throw new Error(`redaction incomplete: a secret is still present at ${leftovers.join(", ")}; refusing to write anything`);
  return { value, redactedAt: [...redactedAt].sort() };
}

/** Pointers of the strings (or keys) that still match a pattern or contain a known secret. */
export function findSecrets(node: unknown, patterns: RegExp[], secrets: string[] = [], pointer = ""): string[] {
  const hit = (text: string) => patterns.some((pattern) => new RegExp(pattern.source).test(text)) || secrets.some((secret) => text.includes(secret));
  if (typeof node === "string") return hit(node) ? [pointer || "/"] : [];
  if (Array.isArray(node)) return node.flatMap((item, index) => findSecrets(item, patterns, secrets, `${pointer}/${index}`));
  if (node !== null && typeof node === "object") {
    return Object.entries(node).flatMap(([key, value]) => {
      // A secret key is named by its position, never spelled out.
      const segment = hit(key) ? `${REDACTED}` : escapeKey(key);
      return [...(hit(key) ? [`${pointer}/${segment} (a key)`] : []), ...findSecrets(value, patterns, secrets, `${pointer}/${segment}`)];
    });
  }
  return [];
}
