// What redaction (redact.ts) takes for a secret: the headers whose value is kept, the words that make
// a key a credential's, and the patterns every other string is searched with (the pattern file, or
// the default list).
import { existsSync } from "node:fs";
import { readFile } from "node:fs/promises";
import { fileURLToPath } from "node:url";

export const REDACTED = "[REDACTED]";

/** Header names (lower case) whose value carries no secret: the only headers whose value is kept. */
export const SAFE_HEADERS = [
  "accept",
  "accept-encoding",
  "accept-language",
  "anthropic-beta",
  "anthropic-version",
  "cache-control",
  "connection",
  "content-encoding",
  "content-length",
  "content-type",
  "host",
  "openai-beta",
  "transfer-encoding",
  "user-agent",
];

/**
 * A key is a credential's when one of its words (split at `_`, `-`, `.` and camelCase, lower-cased) is
 * one of these, or when the whole key is. Whole words, so `max_tokens` (tokens) and `author` are not.
 */
export const SECRET_KEY_WORDS = [
  "apikey",
  "auth",
  "authorization",
  "bearer",
  "cookie",
  "cookies",
  "credential",
  "credentials",
  "key",
  "keys",
  "passphrase",
  "passwd",
  "password",
  "secret",
  "secrets",
  "session",
  "sessionid",
  "token",
];

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

/** The patterns a command redacts with: its pattern file (or the default one, when there), then its extra patterns. */
export async function patternsFor(options: { patternFile?: string; redactPattern?: string[] }): Promise<string[]> {
  const file = options.patternFile ?? (existsSync(defaultPatternFile) ? defaultPatternFile : undefined);
  const base = file ? await readPatternFile(file) : DEFAULT_PATTERNS;
  return [...base, ...(options.redactPattern ?? [])];
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

/** `x_api_key` -> [x, api, key]; `APIKey` -> [api, key]. */
export function keyWords(name: string): string[] {
  return name
    .replace(/([a-z0-9])([A-Z])/g, "$1 $2")
    .replace(/([A-Z]+)([A-Z][a-z])/g, "$1 $2")
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .filter(Boolean);
}

export function secretKeyTest(extraWords: string[] = []): (name: string) => boolean {
  const words = new Set([...SECRET_KEY_WORDS, ...extraWords.map((word) => keyWords(word).join("_"))]);
  return (name) => {
    const parts = keyWords(name);
    return parts.some((part) => words.has(part)) || words.has(parts.join("_"));
  };
}
