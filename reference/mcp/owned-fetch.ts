// A fetch for the MCP HTTP transports whose sockets this connection owns. The global fetch parks
// sockets in a process-wide pool that outlives the client, so "close" would leave connections open on
// the server (pinned decision 6, toolkit.close, mcp.inventory.teardown). Here every request goes through
// one node:http Agent per connection, and close() destroys it: idle, streaming and in-flight sockets alike.
import { Agent as HttpAgent, request as httpRequest, type IncomingMessage } from "node:http";
import { Agent as HttpsAgent, request as httpsRequest } from "node:https";
import { Readable } from "node:stream";

export interface OwnedFetch {
  fetch: (url: string | URL, init?: RequestInit) => Promise<Response>;
  /** Destroy every socket this fetch opened; later requests fail. */
  destroy(): void;
}

const NULL_BODY_STATUSES = new Set([101, 204, 205, 304]);

export function createOwnedFetch(): OwnedFetch {
  const agents = { http: new HttpAgent({ keepAlive: true }), https: new HttpsAgent({ keepAlive: true }) };
  let destroyed = false;
  const fetch = (input: string | URL, init: RequestInit = {}): Promise<Response> =>
    new Promise((resolve, reject) => {
      if (destroyed) return reject(new Error("connection closed"));
      const url = new URL(String(input));
      const secure = url.protocol === "https:";
      const headers: Record<string, string> = {};
      new Headers(init.headers).forEach((value, key) => (headers[key] = value));
      const send = secure ? httpsRequest : httpRequest;
      // No method is a GET to node:http (the SDK's EventSource gives none); the SDK's bodies are JSON text
      // (client/streamableHttp.js:317, client/sse.js:183), for which end() sets Content-Length itself.
      const req = send(
        url,
        { method: init.method, headers, agent: secure ? agents.https : agents.http, signal: init.signal ?? undefined },
        (res) => resolve(toResponse(res)),
      );
      req.on("error", reject);
      req.end(init.body as string | undefined);
    });
  return {
    fetch,
    destroy() {
      destroyed = true;
      agents.http.destroy();
      agents.https.destroy();
    },
  };
}

function toResponse(res: IncomingMessage): Response {
  const headers = new Headers();
  // Each header the answer carried, every value apart (the type's undefined is for keys it lacks).
  for (const [key, values] of Object.entries(res.headersDistinct as Record<string, string[]>)) {
    for (const value of values) headers.append(key, value);
  }
  const status = res.statusCode ?? 500;
  if (NULL_BODY_STATUSES.has(status)) {
    res.resume();
    return new Response(null, { status, statusText: res.statusMessage, headers });
  }
  return new Response(Readable.toWeb(res) as ReadableStream<Uint8Array>, { status, statusText: res.statusMessage, headers });
}
