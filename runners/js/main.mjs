// The `js` runner: drives upstream's own TypeScript port of toolnexus (npm package `toolnexus`)
// through the JSON-lines protocol of runners/PROTOCOL.md. Plain JavaScript (an ES module), so it
// runs on Node 20 without a TypeScript loader.
//
//   node main.mjs               source mode: the port built by install-source.sh in $TNC_BUILD_DIR/port
//                               (its dist/index.js), JSON Patch from $TNC_BUILD_DIR/runner
//   node main.mjs --published   published mode: the package install-published.sh put in
//                               .build/published/node_modules/toolnexus (next to this file)
//
// stdout carries protocol lines only: everything else written there is sent to stderr.
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join, resolve } from "node:path";
import { createInterface } from "node:readline";
import { fileURLToPath, pathToFileURL } from "node:url";

// Claim stdout before anything else can write to it.
const protocolWrite = process.stdout.write.bind(process.stdout);
process.stdout.write = (chunk, encoding, callback) => process.stderr.write(chunk, encoding, callback);
console.log = console.error;
console.info = console.error;
console.debug = console.error;

const { Unsupported, classify } = await import("./common.mjs");
const { clientOps } = await import("./client-ops.mjs");
const { toolkitOps } = await import("./toolkit-ops.mjs");

const PROTOCOL_VERSION = 2;
const PACKAGE = "toolnexus";
const here = dirname(fileURLToPath(import.meta.url));

// What the 0.16.0 port offers through its public API (README.md: the mapping, and what is left
// out). client.cancel: run/ask/stream take `signal` (client.ts:430, 595, 623). Not declared: toolkit.introspection (the port keeps no registry of open toolkits).
// mcp.parse: parseMcpConfig is exported (mcp.ts:87), so the parser is called on its own; what it
// does not normalize is reported as the config gave it (toolkit-ops.mjs).
const CAPABILITIES = [
  "client.run",
  "client.stream",
  "client.ask",
  "style.openai",
  "style.anthropic",
  "client.request-params",
  "client.body-transform",
  "client.hooks",
  "client.transport",
  "client.store-accessor",
  "client.retries",
  "client.cancel",
  "toolkit.extra-tools",
  "toolkit.adapters",
  "mcp.stdio",
  "mcp.http",
  "mcp.sse",
  "mcp.cancel",
  "mcp.deadline",
  "mcp.allowlist",
  "mcp.inventory",
  "mcp.parse",
  "mcp.config-file",
];

// TNC_JS_TRACE=1 echoes every answer to stderr too (the harness shows a failing scenario's stderr),
// e.g. to read the message of an error whose kind is all a scenario checks.
const trace = process.env.TNC_JS_TRACE === "1";
const protocolLine = (line) => {
  if (trace) process.stderr.write(`js runner trace: ${line.length > 2000 ? `${line.slice(0, 2000)}...` : line}\n`);
  protocolWrite(`${line}\n`);
};
const write = (message) => protocolLine(JSON.stringify(message));
/** The answer for an operation or option the port has no way to perform: error kind `unsupported`. */
const unsupported = (seq, elapsedMs, reason) => ({ type: "error", seq, elapsedMs, error: { kind: "unsupported", message: reason } });

/** Where the port and the runner's helper live, by mode. */
function locations() {
  if (process.argv.includes("--published")) {
    const prefix = join(here, ".build", "published");
    return {
      portDir: join(prefix, "node_modules", PACKAGE),
      helperBase: join(prefix, "package.json"),
      what: `the published ${PACKAGE} in ${prefix}`,
    };
  }
  const build = process.env.TNC_BUILD_DIR;
  if (!build)
    throw new Error("TNC_BUILD_DIR is not set: source mode runs the port built there by install-source.sh (or start with --published)");
  return {
    portDir: join(resolve(build), "port"),
    helperBase: join(resolve(build), "runner", "package.json"),
    what: `the port built in ${resolve(build)}/port`,
  };
}

/** Load the port and the helper; a failure makes the runner `unavailable` with the reason. */
async function load() {
  const where = locations();
  let manifest;
  try {
    manifest = JSON.parse(readFileSync(join(where.portDir, "package.json"), "utf8"));
  } catch (error) {
    throw new Error(`cannot read ${where.what}: ${error.message}`);
  }
  if (manifest.name !== PACKAGE) throw new Error(`${where.portDir}/package.json names "${manifest.name}", not "${PACKAGE}"`);
  if (typeof manifest.version !== "string" || manifest.version === "") throw new Error(`${where.portDir}/package.json declares no version`);
  const entry = manifest.exports?.["."]?.import ?? manifest.main ?? "index.js";
  let port;
  try {
    port = await import(pathToFileURL(join(where.portDir, entry)).href);
  } catch (error) {
    throw new Error(`cannot import ${where.what} (${entry}): ${error?.stack ?? error}`);
  }
  let jsonPatch;
  try {
    jsonPatch = createRequire(where.helperBase)("fast-json-patch");
  } catch (error) {
    throw new Error(`cannot load the runner's helper fast-json-patch next to ${where.helperBase}: ${error.message}`);
  }
  const operations = {
    ...clientOps(port, { jsonPatch }),
    ...toolkitOps(port),
  };
  return { version: manifest.version, operations };
}

// notes: what the request in flight substituted to be performed (protocol `notes`), set per request.
const newSession = () => ({ clients: new Map(), toolkits: new Map(), cleanups: [], emptyToolkit: undefined, notes: [] });
let session = newSession();
let loaded; // {version, operations} | {unavailable}

async function ensureLoaded() {
  if (!loaded) {
    try {
      loaded = await load();
    } catch (error) {
      loaded = { unavailable: error instanceof Error ? error.message : String(error) };
      process.stderr.write(`js runner: ${loaded.unavailable}\n`);
    }
  }
  return loaded;
}

async function reset() {
  const old = session;
  session = newSession();
  const cleanups = old.cleanups.splice(0);
  if (old.emptyToolkit) cleanups.push(() => old.emptyToolkit.close());
  await Promise.allSettled(cleanups.map((cleanup) => cleanup()));
}

async function hello(message) {
  if (message.protocol !== PROTOCOL_VERSION) {
    write({ type: "hello", from: "runner", protocol: PROTOCOL_VERSION, error: `this runner speaks protocol ${PROTOCOL_VERSION}` });
    return;
  }
  const state = await ensureLoaded();
  if (state.unavailable !== undefined) {
    write({ type: "hello", from: "runner", protocol: PROTOCOL_VERSION, unavailable: state.unavailable });
    return;
  }
  write({
    type: "hello",
    from: "runner",
    protocol: PROTOCOL_VERSION,
    implementation: { name: "toolnexus", language: "typescript", package: PACKAGE, version: state.version, capabilities: CAPABILITIES },
  });
}

async function request(message) {
  const seq = message.seq ?? 0;
  const op = String(message.op);
  const input = message.input ?? {};
  if (op === "session.reset") {
    const started = performance.now();
    await reset();
    write({ type: "result", seq, elapsedMs: performance.now() - started, value: {} });
    return;
  }
  if (op === "runner.echo") {
    // Never touches the port: answered even when it could not be loaded.
    write({ type: "result", seq, elapsedMs: 0, value: { value: input.value } });
    return;
  }
  const state = await ensureLoaded();
  if (state.unavailable !== undefined) {
    write({ type: "crash", seq, message: `the port is not loaded: ${state.unavailable}` });
    return;
  }
  const handler = state.operations[op];
  if (!handler) {
    write(unsupported(seq, 0, `the js runner has no operation "${op}"`));
    return;
  }
  const started = performance.now();
  // Requests come one at a time, so the session holds the notes of the one in flight.
  const notes = (session.notes = []);
  const withNotes = (answer) => (notes.length ? { ...answer, notes } : answer);
  let value;
  try {
    value = await handler(input, session);
  } catch (error) {
    const elapsedMs = performance.now() - started;
    if (error instanceof Unsupported) write(withNotes(unsupported(seq, elapsedMs, error.message)));
    else write(withNotes({ type: "error", seq, elapsedMs, error: classify(op, error) }));
    return;
  }
  const elapsedMs = performance.now() - started;
  let line;
  try {
    line = JSON.stringify(withNotes({ type: "result", seq, elapsedMs, value: value ?? {} }));
  } catch (error) {
    write({ type: "crash", seq, message: `cannot encode the answer of ${op}: ${error?.message ?? error}` });
    return;
  }
  protocolLine(line);
}

async function answer(line) {
  if (line.trim() === "") return;
  let message;
  try {
    message = JSON.parse(line);
  } catch {
    process.stderr.write(`js runner: ignoring a line that is not JSON: ${line.slice(0, 200)}\n`);
    return;
  }
  try {
    if (message?.type === "hello") await hello(message);
    else if (message?.type === "request") await request(message);
    else process.stderr.write(`js runner: ignoring a message of type ${JSON.stringify(message?.type)}\n`);
  } catch (error) {
    // A bug in the runner itself, outside the port's call.
    write({ type: "crash", seq: message?.seq ?? 0, message: error instanceof Error ? (error.stack ?? error.message) : String(error) });
  }
}

// A rejection nobody awaits (e.g. a late failure inside the port after its call settled) must not
// end the process: Node's default would exit and cost the scenario in flight.
process.on("unhandledRejection", (reason) => {
  process.stderr.write(`js runner: unhandled rejection: ${reason instanceof Error ? (reason.stack ?? reason.message) : String(reason)}\n`);
});

// One request at a time, in order: the protocol is strictly request/answer.
let queue = Promise.resolve();
const lines = createInterface({ input: process.stdin, crlfDelay: Infinity });
lines.on("line", (line) => {
  queue = queue.then(() => answer(line));
});
lines.on("close", () => {
  void queue.then(async () => {
    const bound = new Promise((resolveBound) => setTimeout(resolveBound, 15_000).unref());
    await Promise.race([reset(), bound]);
    process.exit(0);
  });
});
