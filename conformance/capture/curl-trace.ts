// curl --trace-ascii output: "=> Send header" / "=> Send data" blocks make the requests, "<= Recv
// header" / "<= Recv data" their replies (used when they are JSON or SSE that survived the dump).
// curl prints 64 bytes a row and eats a CRLF at a row's end, so a shorter row ended a line.
import { cookieValues } from "./har.ts";
import { headerRecord, type WireCall } from "./wire.ts";

export class CurlTraceError extends Error {}

const ROW_WIDTH = 64;
// An optional --trace-time stamp, then the block marker.
const BLOCK =
  /^(?:\d\d:\d\d:\d\d\.\d+ )?(==|=>|<=) (Info|Send header|Send data|Recv header|Recv data|Send SSL data|Recv SSL data)(?:, (\d+) bytes)?/;
const ROW = /^[0-9a-f]{4,}: ?(.*)$/;

export function looksLikeCurlTrace(text: string): boolean {
  const first = text.split("\n").find((line) => line.trim() !== "");
  return first !== undefined && BLOCK.test(first);
}

interface Block {
  kind: string;
  bytes?: number;
  rows: string[];
  line: number;
}

function blockText(block: Block): string {
  let out = "";
  for (const row of block.rows) out += row.length < ROW_WIDTH ? `${row}\r\n` : row;
  return block.bytes !== undefined ? out.slice(0, block.bytes) : out;
}

export function curlTraceCalls(text: string, file: string): WireCall[] {
  const blocks: Block[] = [];
  text.split("\n").forEach((rawLine, index) => {
    const line = rawLine.replace(/\r$/, "");
    const block = BLOCK.exec(line);
    if (block) {
      blocks.push({ kind: block[2]!, bytes: block[3] === undefined ? undefined : Number(block[3]), rows: [], line: index + 1 });
      return;
    }
    const row = ROW.exec(line);
    if (row && blocks.length) blocks[blocks.length - 1]!.rows.push(row[1]!);
    else if (line.trim() !== "" && !blocks.length)
      throw new CurlTraceError(`${file}:${index + 1}: expected a curl --trace-ascii block ("== Info:", "=> Send header, N bytes")`);
  });

  const calls: WireCall[] = [];
  let current: WireCall | undefined;
  let responseHeaderText = "";
  for (const block of blocks) {
    if (block.kind === "Send header") {
      const lines = blockText(block).split("\r\n");
      const requestLine = /^([A-Z]+) (\S+) HTTP\/[\d.]+$/.exec(lines[0] ?? "");
      if (!requestLine)
        throw new CurlTraceError(
          `${file}:${block.line + 1}: expected a request line (METHOD TARGET HTTP/1.1) at the start of "Send header"`,
        );
      const pairs = lines
        .slice(1)
        .filter(Boolean)
        .map((line): [string, string] => {
          const colon = line.indexOf(":");
          return [line.slice(0, colon).trim(), line.slice(colon + 1).trim()];
        });
      const headers = headerRecord(pairs);
      const host = pairs.find(([name]) => name.toLowerCase() === "host")?.[1];
      const target = requestLine[2]!;
      current = {
        method: requestLine[1]!,
        url: target.startsWith("/") && host ? `http://${host}${target}` : target,
        headers,
        body: "",
        where: `line ${block.line}`,
        droppedSecrets: Object.entries(headers).flatMap(([name, value]) =>
          name.toLowerCase() === "cookie" ? cookieValues(value, false) : [],
        ),
      };
      calls.push(current);
      responseHeaderText = "";
    } else if (block.kind === "Send data") {
      if (!current) throw new CurlTraceError(`${file}:${block.line}: "Send data" before any "Send header"`);
      current.body += blockText(block);
    } else if (block.kind === "Recv header" && current) {
      responseHeaderText += blockText(block);
      // The last status line wins (a "100 Continue" comes first).
      const status = [...responseHeaderText.matchAll(/^HTTP\/[\d.]+ (\d{3})/gm)].pop();
      const contentType = /^content-type:\s*(.+)$/im.exec(responseHeaderText);
      for (const setCookie of responseHeaderText.matchAll(/^set-cookie:\s*(.+)$/gim))
        current.droppedSecrets.push(setCookie[1]!, ...cookieValues(setCookie[1]!, true));
      current.response = { ...current.response, status: status ? Number(status[1]) : undefined, contentType: contentType?.[1]?.trim() };
    } else if (block.kind === "Recv data" && current) {
      current.response = { ...current.response, text: (current.response?.text ?? "") + blockText(block) };
    }
  }
  if (!calls.length) throw new CurlTraceError(`${file}:1: no "=> Send header" block: nothing was sent`);
  return calls;
}
