// The `capture` command: the recording proxy (proxy.ts) from the command line, until Ctrl-C / SIGTERM.
import { relative, resolve } from "node:path";
import { InvalidArgumentError, type Command } from "commander";
import { closeOnInterrupt } from "../common/interrupt.ts";
import { patternsFor } from "./redact-rules.ts";
import { startCaptureProxy } from "./proxy.ts";

const collect = (value: string, previous: string[]) => [...previous, value];

function parseListen(value: string): { host: string; port: number } {
  const match = /^(?:\[([^\]]+)\]|([^:]+)):(\d+)$/.exec(value);
  const port = Number(match?.[3]);
  if (!match || port > 65535)
    throw new InvalidArgumentError("expected HOST:PORT on loopback, e.g. 127.0.0.1:8788 (port 0 picks a free one)");
  return { host: match[1] ?? match[2], port };
}

function parseUpstream(value: string): URL {
  try {
    const url = new URL(value);
    if (url.protocol === "http:" || url.protocol === "https:") return url;
  } catch {
    // fall through
  }
  throw new InvalidArgumentError("expected an http(s) URL, e.g. http://127.0.0.1:9000 (the request's path is appended to it)");
}

interface CaptureCommandOptions {
  listen: { host: string; port: number };
  upstream: URL;
  out: string;
  idPrefix: string;
  redactPattern: string[];
  patternFile?: string;
  keepHeader: string[];
  secretKey: string[];
}

export function registerCaptureProxyCommand(program: Command): void {
  program
    .command("capture")
    .description("a recording proxy on loopback: forwards LLM calls to --upstream and writes each as a (redacted) capture into --out")
    .requiredOption("--listen <host:port>", "where to listen, on loopback (port 0 picks a free one)", parseListen)
    .requiredOption("--upstream <url>", "where to forward (the request's path and query are appended to its path)", parseUpstream)
    .requiredOption("--out <dir>", "where the captures go (one JSON file per call; a tool loop's turns in one)")
    .option(
      "--id-prefix <prefix>",
      "capture ids are PREFIX + openai-run-0001 ...; make it the scenario's folder under fixtures/scenarios",
      "captured/proxy/",
    )
    .option("--redact-pattern <regex>", "also redact strings matching this (repeatable)", collect, [])
    .option("--pattern-file <file>", "redact patterns, one regex a line (default fixtures/captured/redact-patterns.txt)")
    .option("--keep-header <name>", "also keep this header's value (repeatable)", collect, [])
    .option("--secret-key <word>", "also redact the value of keys with this word in their name (repeatable)", collect, [])
    .action(async (options: CaptureCommandOptions) => {
      const proxy = await startCaptureProxy({
        host: options.listen.host,
        port: options.listen.port,
        upstream: options.upstream,
        outDir: resolve(options.out),
        idPrefix: options.idPrefix,
        patterns: await patternsFor(options),
        redactOptions: { keepHeaders: options.keepHeader, secretKeys: options.secretKey },
        log: (line) => console.log(line),
      });
      closeOnInterrupt(async () => {
        await proxy.close();
        console.log(
          `capture: closed; ${proxy.written().length} capture file(s) in ${relative(process.cwd(), resolve(options.out)) || "."}`,
        );
      });
      console.log(
        `capture: listening on ${proxy.url}, forwarding to ${options.upstream.origin}${options.upstream.pathname.replace(/\/$/, "")}`,
      );
      console.log(`capture: point your client's base URL at ${proxy.url}/v1 (or what follows the upstream's path); Ctrl-C to stop`);
      // The listener keeps the process alive until the signal.
    });
}
