// What every importer (HAR, raw HTTP, curl trace) reads out of its input: LLM calls as seen on the
// wire, not yet redacted. derive.ts turns them into captures; redact.ts runs before anything is
// written or printed, so nothing here may be logged.

export interface WireResponse {
  status?: number;
  contentType?: string;
  /** The decoded body text (JSON or SSE). */
  text?: string;
}

export interface WireCall {
  method: string;
  /** Absolute URL or origin-form path (with its query). */
  url: string;
  headers: Record<string, string>;
  /** The request body as sent (decoded: chunked and base64 undone). */
  body: string;
  response?: WireResponse;
  /** ISO time the call started, when the input says. */
  startedAt?: string;
  /** Where in the input this call is, for messages: "entry 3", "line 12". */
  where: string;
  /**
   * Values from parts of the input the capture drops (cookies, response headers, query arrays): kept
   * only so that redaction replaces them if they occur anywhere else.
   */
  droppedSecrets: string[];
}

/** One line of a text: 1-based, for "FILE:LINE" messages. */
export function lineAt(text: string, offset: number): number {
  let line = 1;
  for (let index = 0; index < offset && index < text.length; index++) if (text[index] === "\n") line++;
  return line;
}

/** Headers as a record; a repeated name keeps every value, joined as HTTP would (", "). */
export function headerRecord(pairs: [string, string][]): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of pairs) {
    // HTTP/2 pseudo-headers (:authority, :path) are not headers a client sets.
    if (name.startsWith(":")) continue;
    const existing = Object.keys(out).find((key) => key.toLowerCase() === name.toLowerCase());
    if (existing) out[existing] = `${out[existing]}, ${value}`;
    else out[name] = value;
  }
  return out;
}

/** The path and query of a URL (absolute or already origin-form). */
export function pathOf(url: string): string {
  if (url.startsWith("/")) return url;
  try {
    const parsed = new URL(url);
    return `${parsed.pathname}${parsed.search}`;
  } catch {
    return url;
  }
}

export function hostOf(url: string, headers: Record<string, string>): string | undefined {
  if (!url.startsWith("/")) {
    try {
      return new URL(url).host;
    } catch {
      // fall through to the Host header
    }
  }
  return Object.entries(headers).find(([name]) => name.toLowerCase() === "host")?.[1];
}

/**
 * Where a JSON text stops being JSON, as "line L", without the parser's message (it may quote the
 * text, a secret). Node 20 names a position for some errors only; otherwise the shortest prefix that
 * fails other than by ending early is found by bisection (a prefix of valid JSON only ever "ends early").
 */
export function jsonErrorLine(text: string, error: unknown): string {
  const positionOf = (message: string) => /at position (\d+)/.exec(message)?.[1];
  const given = positionOf(error instanceof Error ? error.message : "");
  if (given) return `line ${lineAt(text, Number(given))}`;
  const failsInside = (length: number): boolean => {
    try {
      JSON.parse(text.slice(0, length));
      return false;
    } catch (failure) {
      const message = failure instanceof Error ? failure.message : "";
      const position = positionOf(message);
      return !/end of JSON input/.test(message) && (position === undefined || Number(position) < length);
    }
  };
  let low = 0;
  let high = text.length;
  while (low < high) {
    const middle = (low + high) >> 1;
    if (failsInside(middle)) high = middle;
    else low = middle + 1;
  }
  return `line ${lineAt(text, Math.max(0, low - 1))}`;
}
