// The `ts` runner: the reference implementation behind runners/PROTOCOL.md, out of process, and the
// model of a runner (README.md). This file is its loop: JSON lines in on stdin, one request at a time,
// each answer out on stdout. handler.ts answers them, the very handler the in-process subject calls,
// so any difference between the two is the transport's.
import { createInterface } from "node:readline";
import type { HarnessMessage } from "../protocol/protocol.ts";
import { ReferenceHandler } from "./handler.ts";

const handler = new ReferenceHandler();
const write = (message: object) => process.stdout.write(`${JSON.stringify(message)}\n`);

// stdout carries the protocol only: anything the reference logs goes to stderr.
console.log = console.error;
console.warn = console.error;
console.info = console.error;

function parse(line: string): HarnessMessage | undefined {
  try {
    const message = JSON.parse(line) as { type?: unknown };
    if (message.type === "hello" || message.type === "request") return message as HarnessMessage;
    console.error(`ts runner: ignoring a message that is neither hello nor request: ${line.slice(0, 200)}`);
  } catch {
    console.error(`ts runner: ignoring a line that is not JSON: ${line.slice(0, 200)}`);
  }
  return undefined;
}

// One request at a time, in order: the protocol is strictly request/answer.
let queue = Promise.resolve();
const lines = createInterface({ input: process.stdin, crlfDelay: Infinity });
lines.on("line", (line) => {
  const message = parse(line);
  if (!message) return;
  queue = queue.then(async () => {
    write(await handler.handle(message));
  });
});
lines.on("close", () => {
  void queue.then(async () => {
    await handler.close();
    process.exit(0);
  });
});
