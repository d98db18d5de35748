// Listening on loopback with every socket tracked, and a close that is bounded whatever the peers do.
// The fixture servers (llm-mock, the MCP HTTP servers) and the capture proxy all need exactly this:
// a test or a Ctrl-C must leave no socket behind, and a peer that never closes must not hang them.
import type { Server } from "node:http";
import type { Socket } from "node:net";

export interface TrackedServer {
  port: number;
  /** Open sockets right now (for tests that check nothing is left). */
  openSockets(): number;
  /**
   * Close the listener and every socket, in-flight ones included; resolves once all have closed,
   * then `thenWait` (e.g. files still being written), or at `boundMs`, whichever comes first.
   * Calling it again returns the same promise.
   */
  close(boundMs?: number, thenWait?: () => Promise<unknown>): Promise<void>;
}

/** Start `server` listening on `host:port` (0: a free port) and track its sockets. */
export async function listenTracked(server: Server, host = "127.0.0.1", port = 0): Promise<TrackedServer> {
  const sockets = new Set<Socket>();
  server.on("connection", (socket: Socket) => {
    // Small SSE chunks go out as they are written, not coalesced (Nagle).
    socket.setNoDelay(true);
    sockets.add(socket);
    socket.on("close", () => sockets.delete(socket));
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(port, host, () => {
      server.off("error", reject);
      resolve();
    });
  });
  let closing: Promise<void> | undefined;
  return {
    port: (server.address() as { port: number }).port,
    openSockets: () => sockets.size,
    close(boundMs = 2000, thenWait = async () => {}) {
      closing ??= new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, boundMs);
        const listenerClosed = new Promise((done) => server.close(done));
        const socketsClosed = [...sockets].map((socket) => new Promise((done) => socket.once("close", done)));
        server.closeAllConnections();
        for (const socket of sockets) socket.destroy();
        void Promise.all([listenerClosed, ...socketsClosed])
          .then(thenWait)
          .then(() => {
            clearTimeout(timer);
            resolve();
          });
      });
      return closing;
    },
  };
}
