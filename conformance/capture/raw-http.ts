// Raw HTTP/1.1 request text, one or more requests as Go's httputil.DumpRequestOut writes them: the
// request line, headers, a blank line, the body (Content-Length bytes, or `Transfer-Encoding:
// chunked` chunks, decoded). Line endings may be CRLF or LF (a dump pasted through an editor).
import { cookieValues } from "./har.ts";
import { headerRecord, lineAt, type WireCall } from "./wire.ts";

export class RawHttpError extends Error {}

const REQUEST_LINE = /^([A-Z]+) (\S+) HTTP\/\d(?:\.\d)?\r?$/;

/** Raw HTTP by content: the first non-blank line is a request line. */
export function looksLikeRawHttp(text: string): boolean {
  const first = text.split("\n").find((line) => line.trim() !== "");
  return first !== undefined && REQUEST_LINE.test(first);
}

/** The index just past the line that starts at `start` (its LF), and the line without CR/LF. */
function readLine(bytes: Buffer, start: number): { line: string; next: number } {
  const end = bytes.indexOf(0x0a, start);
  const stop = end < 0 ? bytes.length : end;
  return { line: bytes.subarray(start, stop).toString("utf8").replace(/\r$/, ""), next: end < 0 ? bytes.length : end + 1 };
}

export function rawHttpCalls(input: Buffer, file: string): WireCall[] {
  const text = input.toString("utf8");
  const fail = (offset: number, message: string): never => {
    throw new RawHttpError(`${file}:${lineAt(text, offset)}: ${message}`);
  };
  const calls: WireCall[] = [];
  let position = 0;
  const skipBlank = () => {
    while (
      position < input.length &&
      (input[position] === 0x0a || input[position] === 0x0d || input[position] === 0x20 || input[position] === 0x09)
    )
      position++;
  };
  skipBlank();
  while (position < input.length) {
    const start = position;
    const requestLine = readLine(input, position);
    const match = REQUEST_LINE.exec(requestLine.line);
    // Never quote the line: it may hold a secret (a query string).
    if (!match) fail(start, "expected a request line: METHOD TARGET HTTP/1.1 (e.g. POST /v1/chat/completions HTTP/1.1)");
    position = requestLine.next;
    const headers: [string, string][] = [];
    for (;;) {
      if (position >= input.length) fail(start, "the headers do not end: expected a blank line before the body");
      const { line, next } = readLine(input, position);
      if (line === "") {
        position = next;
        break;
      }
      const colon = line.indexOf(":");
      if (colon <= 0) fail(position, "expected a header line: Name: value");
      headers.push([line.slice(0, colon).trim(), line.slice(colon + 1).trim()]);
      position = next;
    }
    const header = (name: string) => headers.find(([key]) => key.toLowerCase() === name)?.[1];
    let body: Buffer;
    if (/chunked/i.test(header("transfer-encoding") ?? "")) {
      const chunks: Buffer[] = [];
      for (;;) {
        const sizeLine = readLine(input, position);
        const size = Number.parseInt(sizeLine.line.split(";")[0]!.trim(), 16);
        if (!/^[0-9a-fA-F]+$/.test(sizeLine.line.split(";")[0]!.trim()) || Number.isNaN(size))
          fail(position, "expected a chunk size in hex (Transfer-Encoding: chunked)");
        position = sizeLine.next;
        if (size === 0) {
          // Trailers, then the blank line that ends the body.
          while (position < input.length) {
            const trailer = readLine(input, position);
            position = trailer.next;
            if (trailer.line === "") break;
          }
          break;
        }
        if (position + size > input.length) fail(position, `a chunk of ${size} bytes runs past the end of the file`);
        chunks.push(input.subarray(position, position + size));
        position += size;
        const after = readLine(input, position);
        if (after.line !== "") fail(position, "expected the line end after a chunk's data");
        position = after.next;
      }
      body = Buffer.concat(chunks);
    } else if (header("content-length") !== undefined) {
      const length = Number(header("content-length"));
      if (!Number.isInteger(length) || length < 0) fail(start, "Content-Length is not a byte count");
      if (position + length > input.length) fail(position, `the body is shorter than its Content-Length (${length} bytes)`);
      body = input.subarray(position, position + length);
      position += length;
    } else {
      // No length: the body runs to the next request line (or the end).
      let end = position;
      while (end < input.length) {
        const { line, next } = readLine(input, end);
        if (REQUEST_LINE.test(line) && end > position) break;
        end = next;
      }
      // The line end before the next request (or the file's last one) is not the body's.
      body = Buffer.from(input.subarray(position, end).toString("utf8").replace(/\s+$/, ""));
      position = end;
    }
    const record = headerRecord(headers);
    const host = header("host");
    const target = match![2]!;
    const droppedSecrets = Object.entries(record).flatMap(([name, value]) =>
      name.toLowerCase() === "cookie" ? cookieValues(value, false) : [],
    );
    calls.push({
      method: match![1]!,
      url: target.startsWith("/") && host ? `http://${host}${target}` : target,
      headers: record,
      body: body.toString("utf8"),
      where: `line ${lineAt(text, start)}`,
      droppedSecrets,
    });
    skipBlank();
  }
  if (!calls.length) throw new RawHttpError(`${file}:1: expected at least one HTTP request`);
  return calls;
}
