// Prints a real exchange with the `ts` runner, for runners/PROTOCOL.md "Writing a runner": the
// handshake, client.create and client.run against an llm-mock, an error the implementation raised
// (an upstream 400), session.reset and an operation no runner has. Each line is what went over the
// pipes (`>` harness to runner, `<` runner to harness); test/runners/protocol-doc.test.ts validates
// the copy in PROTOCOL.md against the protocol schema.
//   npx tsx scripts/protocol-transcript.ts
import { spawn } from "node:child_process";
import { createInterface } from "node:readline";
import { fileURLToPath } from "node:url";
import { startLlmMock } from "../fixtures/llm-mock/index.ts";
import { protocolVersion } from "../runners/protocol/protocol.ts";

const answerTimeoutMs = 30_000;
const runnerDir = fileURLToPath(new URL("../runners/ts/", import.meta.url));

const mock = await startLlmMock();
await mock.act("script", [
  { text: "hello", usage: { input: 3, output: 1 } },
  { status: 400, body: { error: { message: "model m1 is not served here" } } },
]);
const runner = spawn("node", ["--import", "tsx", "main.ts"], { cwd: runnerDir, stdio: ["pipe", "pipe", "inherit"] });
const answers = createInterface({ input: runner.stdout! })[Symbol.asyncIterator]();

async function exchange(message: object): Promise<void> {
  const line = JSON.stringify(message);
  console.log(`> ${line}`);
  runner.stdin!.write(`${line}\n`);
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>(
    (_, reject) => (timer = setTimeout(() => reject(new Error(`no answer to ${line} within ${answerTimeoutMs} ms`)), answerTimeoutMs)),
  );
  const answer = await Promise.race([answers.next(), timeout]).finally(() => clearTimeout(timer));
  if (answer.done) throw new Error(`the runner closed its stdout before answering ${line}`);
  console.log(`< ${answer.value}`);
}

let seq = 0;
const request = (op: string, input: object) => exchange({ type: "request", seq: ++seq, op, input });
try {
  await exchange({ type: "hello", from: "harness", protocol: protocolVersion });
  await request("client.create", { handle: "c", style: "openai", baseUrl: mock.vars.baseUrl, model: "m1" });
  await request("client.run", { client: "c", prompt: "hi" });
  await request("client.run", { client: "c", prompt: "hi again" });
  await request("session.reset", {});
  await request("client.summarize", { client: "c" });
} finally {
  runner.stdin!.end();
  const exited = new Promise((resolve) => runner.once("exit", resolve));
  const killTimer = setTimeout(() => runner.kill("SIGKILL"), 5_000);
  await exited;
  clearTimeout(killTimer);
  await mock.stop();
}
