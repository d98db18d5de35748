// `conformance capture`: a recording proxy on loopback. It forwards every request to the upstream and
// the answer back as it arrives (an SSE body chunk by chunk, never buffered whole), and writes each
// LLM call (POST .../chat/completions, POST .../messages) as a capture, redacted before it touches
// the disk (redact.ts, the same fail-closed rules as `import`). Calls of one tool loop become one
// multi-turn capture, rewritten as each turn completes. Other paths are forwarded, not recorded.
import { createHash, type Hash } from "node:crypto";
import { mkdir, writeFile } from "node:fs/promises";
import { createServer, request as httpRequest, type IncomingHttpHeaders, type IncomingMessage, type ServerResponse } from "node:http";
import { request as httpsRequest } from "node:https";
import { join } from "node:path";
import { brotliDecompressSync, gunzipSync, inflateSync } from "node:zlib";
import { listenTracked } from "../common/loopback-server.ts";
import { redact, type RedactOptions } from "./redact.ts";
import { continues, conversationToCapture, type Conversation, type Turn } from "./proxy-capture.ts";
import type { Style } from "./client-body.ts";
import { replyFromWire } from "./wire-reply.ts";

export interface CaptureProxyOptions {
  /** Loopback only: 127.0.0.1 (or ::1, localhost). */
  host: string;
  /** 0 picks a free port. */
  port: number;
  upstream: URL;
  outDir: string;
  /** Redact patterns (sources), as `import` uses them. */
  patterns: string[];
  redactOptions?: RedactOptions;
  /** Capture ids are PREFIX + STYLE-MODE-NNNN; the file name is the id's last segment. */
  idPrefix?: string;
  log?: (line: string) => void;
}

export interface CaptureProxy {
  port: number;
  url: string;
  /** Capture files written so far (absolute paths; a capture rewritten per turn counts once). */
  written(): string[];
  /** Close the listener and every socket (in-flight ones included); resolves within `boundMs`. */
  close(boundMs?: number): Promise<void>;
}

const LOOPBACK = new Set(["127.0.0.1", "::1", "localhost"]);
// Hop-by-hop headers (RFC 9110 7.6.1) are the proxy's own business on each side.
const HOP_BY_HOP = new Set(["connection", "keep-alive", "proxy-connection", "transfer-encoding", "te", "trailer", "upgrade", "host"]);

function styleOf(method: string, path: string): Style | undefined {
  if (method !== "POST") return undefined;
  const pathname = path.replace(/[?#].*$/s, "");
  if (/\/chat\/completions$/.test(pathname)) return "openai";
  if (/\/messages$/.test(pathname)) return "anthropic";
  return undefined;
}

function forwardedHeaders(headers: IncomingHttpHeaders, upstream: URL): Record<string, string | string[]> {
  const out: Record<string, string | string[]> = {};
  for (const [name, value] of Object.entries(headers)) if (value !== undefined && !HOP_BY_HOP.has(name)) out[name] = value;
  out.host = upstream.host;
  return out;
}

function flatHeaders(headers: IncomingHttpHeaders): Record<string, string> {
  return Object.fromEntries(
    Object.entries(headers)
      .filter(([, value]) => value !== undefined)
      .map(([name, value]) => [name, Array.isArray(value) ? value.join(", ") : String(value)]),
  );
}

function decode(bytes: Buffer, encoding: string | undefined): string {
  const name = (encoding ?? "").trim().toLowerCase();
  if (name === "gzip" || name === "x-gzip") return gunzipSync(bytes).toString("utf8");
  if (name === "deflate") return inflateSync(bytes).toString("utf8");
  if (name === "br") return brotliDecompressSync(bytes).toString("utf8");
  return bytes.toString("utf8");
}

async function readAll(req: IncomingMessage): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

export async function startCaptureProxy(options: CaptureProxyOptions): Promise<CaptureProxy> {
  if (!LOOPBACK.has(options.host))
    throw new Error(
      `--listen must be a loopback address (127.0.0.1, ::1, localhost), not ${options.host}: captured traffic carries credentials`,
    );
  if (options.upstream.protocol !== "http:" && options.upstream.protocol !== "https:")
    throw new Error(`--upstream must be an http or https URL, not ${options.upstream.protocol}`);
  const log = options.log ?? ((line: string) => console.error(line));
  const idPrefix = options.idPrefix ?? "";
  const upstreamRequests = new Set<ReturnType<typeof httpRequest>>();
  const open: (Conversation & { hash: Hash })[] = [];
  const written = new Set<string>();
  const counters = new Map<string, number>();
  // Writes happen one after another: a conversation's file is rewritten as its turns arrive.
  let writing: Promise<void> = Promise.resolve();

  const nextId = (style: Style, stream: boolean) => {
    const key = `${style}-${stream ? "stream" : "run"}`;
    const count = (counters.get(key) ?? 0) + 1;
    counters.set(key, count);
    return `${idPrefix}${key}-${String(count).padStart(4, "0")}`;
  };

  const record = (turn: Turn, requestBytes: Buffer, responseBytes: Buffer, caveats: string[]) => {
    let conversation = open.find((candidate) => continues(candidate, turn));
    if (!conversation) {
      conversation = {
        id: nextId(turn.style, turn.stream),
        turns: [],
        originalSha256: "",
        capturedAt: new Date().toISOString(),
        caveats: [],
        hash: createHash("sha256"),
      };
      open.push(conversation);
      if (open.length > 64) open.shift();
    }
    conversation.turns.push(turn);
    conversation.caveats.push(...caveats.map((caveat) => `turn ${conversation!.turns.length - 1}: ${caveat}`));
    conversation.hash.update(requestBytes).update(responseBytes);
    conversation.originalSha256 = conversation.hash.copy().digest("hex");
    const snapshot = { ...conversation, turns: [...conversation.turns], caveats: [...new Set(conversation.caveats)] };
    writing = writing
      .then(() => writeCapture(snapshot))
      .catch((error: unknown) => log(`capture: ${snapshot.id}: not written: ${error instanceof Error ? error.message : String(error)}`));
  };

  const writeCapture = async (conversation: Conversation) => {
    const name = conversation.id.split("/").pop()!;
    const file = join(options.outDir, `${name}.json`);
    let text: string;
    try {
      // Redacted here, before anything is written; a capture the redaction refuses is not written at all.
      const { value } = redact(conversationToCapture(conversation, options.upstream), options.patterns, options.redactOptions);
      text = `${JSON.stringify(value, null, 2)}\n`;
    } catch (error) {
      log(`capture: ${name}: not written: ${error instanceof Error ? error.message : String(error)}`);
      return;
    }
    await mkdir(options.outDir, { recursive: true });
    await writeFile(file, text);
    const first = !written.has(file);
    written.add(file);
    log(`capture: ${first ? "wrote" : "updated"} ${file} (${conversation.turns.length} turn${conversation.turns.length === 1 ? "" : "s"})`);
    for (const caveat of conversation.caveats) log(`capture: ${name}: ${caveat}`);
  };

  const handle = async (req: IncomingMessage, res: ServerResponse) => {
    const method = req.method ?? "GET";
    const path = req.url ?? "/";
    const requestBytes = await readAll(req);
    const style = styleOf(method, path);
    const target = new URL(options.upstream.pathname.replace(/\/$/, "") + path, options.upstream);
    const send = target.protocol === "https:" ? httpsRequest : httpRequest;
    const headers = forwardedHeaders(req.headers, options.upstream);
    if (requestBytes.length || method === "POST") headers["content-length"] = String(requestBytes.length);
    const upstreamRequest = send(target, { method, headers });
    upstreamRequests.add(upstreamRequest);
    upstreamRequest.on("close", () => upstreamRequests.delete(upstreamRequest));
    // The client went away: stop the upstream call too.
    res.on("close", () => {
      if (!res.writableFinished) upstreamRequest.destroy();
    });
    upstreamRequest.on("error", (error: NodeJS.ErrnoException) => {
      if (res.headersSent) return void res.destroy();
      log(
        `capture: ${method} ${path.replace(/[?#].*$/s, "")}: upstream ${options.upstream.origin} unreachable (${error.code ?? error.message}); answered 502`,
      );
      res.writeHead(502, { "content-type": "application/json" });
      res.end(
        JSON.stringify({
          error: {
            message: `capture proxy: upstream ${options.upstream.origin} unreachable (${error.code ?? "error"})`,
            type: "bad_gateway",
          },
        }),
      );
    });
    upstreamRequest.on("response", (answer) => {
      const headers = { ...answer.headers };
      for (const name of HOP_BY_HOP) delete headers[name];
      res.writeHead(answer.statusCode ?? 502, headers);
      res.flushHeaders();
      const chunks: Buffer[] = [];
      answer.on("data", (chunk: Buffer) => {
        chunks.push(chunk);
        // Passed on as it comes: the client sees each SSE event when the upstream sends it.
        res.write(chunk);
      });
      answer.on("end", () => {
        res.end();
        if (style) finishTurn(false);
      });
      answer.on("error", () => {
        res.destroy();
        if (style) finishTurn(true);
      });
      const finishTurn = (cut: boolean) => {
        const responseBytes = Buffer.concat(chunks);
        let body: unknown;
        const raw = requestBytes.toString("utf8");
        try {
          body = JSON.parse(raw);
        } catch {
          return log(`capture: ${method} ${path.replace(/[?#].*$/s, "")}: the request body is not JSON; not recorded`);
        }
        if (typeof body !== "object" || body === null || Array.isArray(body))
          return log(`capture: ${method} ${path.replace(/[?#].*$/s, "")}: the request body is not a JSON object; not recorded`);
        let text: string;
        try {
          text = decode(responseBytes, answer.headers["content-encoding"] as string | undefined);
        } catch {
          return log(
            `capture: ${method} ${path.replace(/[?#].*$/s, "")}: could not decode the ${String(answer.headers["content-encoding"])} answer; not recorded`,
          );
        }
        const { reply, caveats } = replyFromWire(style!, { status: answer.statusCode ?? 0, headers: answer.headers, text }, cut);
        const record_ = body as Record<string, unknown>;
        record(
          { style: style!, stream: record_.stream === true, method, path, headers: flatHeaders(req.headers), raw, body: record_, reply },
          requestBytes,
          responseBytes,
          caveats,
        );
      };
    });
    upstreamRequest.end(requestBytes);
  };

  const server = createServer((req, res) => {
    handle(req, res).catch((error: unknown) => {
      log(`capture: ${req.method} ${(req.url ?? "/").replace(/[?#].*$/s, "")}: ${error instanceof Error ? error.message : String(error)}`);
      if (!res.headersSent) res.writeHead(502, { "content-type": "text/plain" }).end("capture proxy error");
      else res.destroy();
    });
  });
  const tracked = await listenTracked(server, options.host, options.port);
  const port = tracked.port;
  const hostInUrl = options.host.includes(":") ? `[${options.host}]` : options.host;
  return {
    port,
    url: `http://${hostInUrl}:${port}`,
    written: () => [...written],
    close(boundMs = 2000) {
      for (const request of upstreamRequests) request.destroy();
      // Then the captures still being written: a finished turn is not lost on Ctrl-C.
      return tracked.close(boundMs, () => writing);
    },
  };
}
