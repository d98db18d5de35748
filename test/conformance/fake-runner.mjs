// A misbehaving runner for the harness's own tests. MODE picks how it misbehaves on op "runner.echo"
// when the echoed value is "trigger": crash (exit), garbage (non-JSON line), hang (never answer),
// wrong-seq, stderr-then-crash, bad-value (a result that does not fit runner.echo's output schema).
// Other modes act at the handshake: unavailable, old-protocol (refuses the version, as a runner of
// protocol 1 does), old-answers (answers as protocol 1 without checking), silent, flood (40 MB
// without a newline, then stays), import-error (a traceback on stderr, exit 1 at once).
// FAKE_RUNNER_FLIP_DIR (any mode): the echo of "flip" is a planted flaky answer, "flip" on the 1st, 3rd,
// 5th... such call across every process sharing the folder and "flop" on the others (run --repeat's tests).
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { createInterface } from "node:readline";

// The version it speaks: the protocol schema's own (so this fake never lags behind it).
const protocol = JSON.parse(readFileSync(new URL("../../runners/protocol/protocol.schema.json", import.meta.url), "utf8")).$defs.version
  .const;

// FAKE_RUNNER_MARKER: a file that exists after the first start; later starts then use FAKE_RUNNER_LATER_MODE.
const marker = process.env.FAKE_RUNNER_MARKER;
const restarted = marker !== undefined && existsSync(marker);
if (marker && !restarted) writeFileSync(marker, String(process.pid));
const mode = (restarted ? process.env.FAKE_RUNNER_LATER_MODE : undefined) ?? process.env.FAKE_RUNNER_MODE ?? "good";
// linger (or FAKE_RUNNER_LINGER=1 with any mode): keeps running after its stdin closes, as a runner that ignores EOF would.
if (mode === "linger" || process.env.FAKE_RUNNER_LINGER === "1") setInterval(() => undefined, 1_000);
if (mode === "import-error") {
  process.stderr.write(
    'Traceback (most recent call last):\n  File "runner.py", line 3, in <module>\n    import toolnexus\nModuleNotFoundError: No module named toolnexus\n',
  );
  process.exit(1);
}
const write = (message) => process.stdout.write(`${JSON.stringify(message)}\n`);

createInterface({ input: process.stdin }).on("line", (line) => {
  const message = JSON.parse(line);
  if (message.type === "hello") {
    if (mode === "silent") return;
    if (mode === "flood") {
      setInterval(() => undefined, 1_000); // stays alive: the harness must not wait for an exit
      return process.stdout.write("x".repeat(40 * 1024 * 1024));
    }
    if (mode === "unavailable")
      return write({ type: "hello", from: "runner", protocol, unavailable: "pip: No matching distribution found for toolnexus==9.9.9" });
    if (mode === "old-protocol") return write({ type: "hello", from: "runner", protocol: 1, error: "this runner speaks protocol 1" });
    const implementation = { name: "fake", language: "js", package: "fake", version: "1.0.0", capabilities: ["toolkit.extra-tools"] };
    return write({ type: "hello", from: "runner", protocol: mode === "old-answers" ? 1 : protocol, implementation });
  }
  const { seq, op, input } = message;
  if (op === "runner.echo" && input.value === "trigger") {
    if (mode === "crash") process.exit(3);
    if (mode === "garbage") return process.stdout.write("Traceback (most recent call last):\n");
    if (mode === "hang") return;
    if (mode === "wrong-seq") return write({ type: "result", seq: seq + 7, elapsedMs: 0, value: {} });
    if (mode === "bad-value") return write({ type: "result", seq, elapsedMs: 0, value: { echoed: input.value } });
    if (mode === "stderr-then-crash") {
      process.stderr.write("panic: runtime error: index out of range\n");
      process.exit(2);
    }
  }
  if (op === "runner.echo" && input.value === "flip" && process.env.FAKE_RUNNER_FLIP_DIR)
    return write({
      type: "result",
      seq,
      elapsedMs: 0.1,
      value: { value: claimTurn(process.env.FAKE_RUNNER_FLIP_DIR) % 2 ? "flop" : "flip" },
    });
  if (op === "runner.echo") return write({ type: "result", seq, elapsedMs: 0.1, value: { value: input.value } });
  if (op === "session.reset") return write({ type: "result", seq, elapsedMs: 0, value: {} });
  return write({ type: "error", seq, elapsedMs: 0, error: { kind: "unsupported", message: `fake runner has no ${op}` } });
});

/** The next turn number among all processes using `dir`: creating a file exclusively is atomic, so no two get the same. */
function claimTurn(dir) {
  for (let turn = 0; ; turn++) {
    try {
      writeFileSync(join(dir, String(turn)), "", { flag: "wx" });
      return turn;
    } catch (error) {
      if (error.code !== "EEXIST") throw error;
    }
  }
}
