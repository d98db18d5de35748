// The `ts` runner: the reference implementation behind runners/PROTOCOL.md, out of process. It uses
// the same driver as the in-process subject, so any difference between the two is the protocol's.
import { createInterface } from "node:readline";
import { referenceInfo, ReferenceDriver } from "../../conformance/subjects/reference/index.ts";
import { UnsupportedError } from "../../conformance/subjects/reference/driver.ts";

const protocolVersion = 1;
const driver = new ReferenceDriver();
const write = (message: object) => process.stdout.write(`${JSON.stringify(message)}\n`);

// stdout carries the protocol only: anything the reference logs goes to stderr.
console.log = console.error;
console.warn = console.error;
console.info = console.error;

type Incoming = { type: string; protocol?: number; seq?: number; op?: string; input?: Record<string, unknown> };

async function answer(line: string): Promise<void> {
  let message: Incoming;
  try {
    message = JSON.parse(line) as Incoming;
  } catch {
    console.error(`ts runner: ignoring a line that is not JSON: ${line.slice(0, 200)}`);
    return;
  }
  if (message.type === "hello") {
    if (message.protocol !== protocolVersion) {
      write({ type: "hello", from: "runner", protocol: protocolVersion, error: `this runner speaks protocol ${protocolVersion}` });
      return;
    }
    // The harness records how a runner was built; the handshake carries only what the protocol defines.
    const { name: _name, build: _build, ...implementation } = referenceInfo("ts");
    write({ type: "hello", from: "runner", protocol: protocolVersion, implementation: { name: "toolnexus-reference", ...implementation } });
    return;
  }
  const seq = message.seq ?? 0;
  try {
    const outcome = await driver.execute(String(message.op), message.input ?? {});
    if (outcome.ok) write({ type: "result", seq, elapsedMs: outcome.elapsedMs, value: outcome.value });
    else write({ type: "error", seq, elapsedMs: outcome.elapsedMs, error: outcome.error });
  } catch (error) {
    if (error instanceof UnsupportedError) write({ type: "unsupported", seq, reason: error.message });
    else write({ type: "crash", seq, message: error instanceof Error ? (error.stack ?? error.message) : String(error) });
  }
}

// One request at a time, in order: the protocol is strictly request/answer.
let queue = Promise.resolve();
const lines = createInterface({ input: process.stdin, crlfDelay: Infinity });
lines.on("line", (line) => {
  queue = queue.then(() => answer(line));
});
lines.on("close", () => {
  void queue.then(async () => {
    await driver.reset();
    process.exit(0);
  });
});
