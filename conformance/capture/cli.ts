// The capture workflow's commands (import, record), registered on the main program.
// See fixtures/captured/README.md.
import { mkdir, writeFile } from "node:fs/promises";
import { dirname, join, relative, resolve } from "node:path";
import type { Command } from "commander";
import { repoRoot } from "../common/paths.ts";
import { defaultScenarioDir, idForPath } from "../scenario/scenario-id.ts";
import { formatDiagnostic } from "../scenario/load.ts";
import { lintPaths } from "../scenario/lint.ts";
import { toolnexusSuite } from "../suite/toolnexus.ts";
import { createReferenceSubject } from "../subjects/reference/index.ts";
import type { Capture } from "../schema/capture.types.ts";
import { captureProblems, CaptureError } from "./load.ts";
import { RecordError, recordScenario } from "./record.ts";
import { redact } from "./redact.ts";
import { patternsFor } from "./redact-rules.ts";
import { readReplies, readSource } from "./sources.ts";
import { captureToScenario } from "./to-scenario.ts";
import { registerCaptureProxyCommand } from "./capture-command.ts";

export const defaultCapturedDir = join(repoRoot, "fixtures/captured");
export const defaultCapturedScenarioDir = join(repoRoot, "fixtures/scenarios/captured");

const collect = (value: string, previous: string[]) => [...previous, value];

export interface ImportOptions {
  out?: string;
  redactPattern?: string[];
  patternFile?: string;
  exact?: boolean;
  recorded?: boolean;
  captureOut?: string;
  /** More headers whose value is kept (all but SAFE_HEADERS are redacted). */
  keepHeader?: string[];
  /** More credential words for key names (SECRET_KEY_WORDS). */
  secretKey?: string[];
  /** HAR entries to import: a glob on the URL or /REGEX/ (default: POSTs to chat/completions or messages). */
  match?: string;
  /** Upstream replies for raw HTTP requests, in order (JSON or SSE text). */
  reply?: string[];
  /** client.create options that replace the ones derived from the wire body. */
  client?: string;
  /** provenance.capturedAt for inputs that carry no time (raw HTTP): default now. */
  capturedAt?: string;
}

/** Where a capture's scenario goes: its folder under fixtures/captured/ mirrored under --out. */
function scenarioPathFor(capturePath: string, outDir: string, name: string): string {
  const absolute = resolve(capturePath);
  const inside = relative(defaultCapturedDir, absolute);
  const sub = !inside.startsWith("..") && !inside.startsWith("/") ? dirname(inside) : ".";
  return join(resolve(outDir), sub, `${name}.yaml`);
}

function capturedAt(given: string | undefined): string {
  if (given === undefined) return new Date().toISOString();
  if (Number.isNaN(Date.parse(given))) throw new CaptureError(`--captured-at ${given}: expected an ISO 8601 time (2026-11-30T09:14:03Z)`);
  return given;
}

/** Under the suite's folder, the path below it; elsewhere, the path below --out's parent (so --out keeps its name). */
function scenarioIdFor(scenarioPath: string, outDir: string): string {
  const inSuite = !relative(defaultScenarioDir, scenarioPath).startsWith("..");
  return idForPath(scenarioPath, inSuite ? defaultScenarioDir : dirname(resolve(outDir)));
}

/** Import captures as scenarios; returns the files written. Prints paths and counts, never values. */
export async function importCaptures(
  files: string[],
  options: ImportOptions,
  log: (line: string) => void = console.log,
): Promise<string[]> {
  const patterns = await patternsFor(options);
  const outDir = options.out ?? defaultCapturedScenarioDir;
  const prepared: { file: string; name: string; capture: Capture; redactedAt: string[]; scenarioPath: string }[] = [];
  const problems: string[] = [];
  const context = {
    options: { match: options.match, reply: options.reply, client: options.client },
    idFor: (file: string, name: string) => scenarioIdFor(scenarioPathFor(file, outDir, name), outDir),
    replies: await readReplies(options.reply),
    now: capturedAt(options.capturedAt),
  };
  for (const file of files) {
    const source = await readSource(file, context);
    for (const warning of source.warnings) log(`warning: ${warning}`);
    for (const { name, data } of source.items) {
      const { value, redactedAt } = redact(data, patterns, {
        keepHeaders: options.keepHeader,
        secretKeys: options.secretKey,
        knownSecrets: source.knownSecrets,
      });
      const label = source.format === "capture" ? file : `${file} (${source.format}, capture ${name})`;
      const found = captureProblems(label, value);
      if (found.length) problems.push(...found);
      else prepared.push({ file, name, capture: value as Capture, redactedAt, scenarioPath: scenarioPathFor(file, outDir, name) });
    }
  }
  if (context.replies.length)
    problems.push(`--reply: ${context.replies.length} more repl${context.replies.length === 1 ? "y" : "ies"} than raw HTTP requests`);
  const ids = new Map<string, string>();
  for (const { file, capture } of prepared) {
    const first = ids.get(capture.id);
    if (first) problems.push(`${file}: id "${capture.id}" is also the id of ${first}`);
    ids.set(capture.id, file);
  }
  if (problems.length)
    throw new CaptureError(`invalid capture(s), nothing written:\n${problems.map((problem) => `  ${problem}`).join("\n")}`);

  const written: string[] = [];
  for (const { file, name, capture, redactedAt, scenarioPath } of prepared) {
    const text = captureToScenario(capture, {
      exact: options.exact,
      recorded: options.recorded,
      repoRoot,
      scenarioPath,
      scenarioId: scenarioIdFor(scenarioPath, outDir),
      capturePath: resolve(file),
    });
    await mkdir(dirname(scenarioPath), { recursive: true });
    await writeFile(scenarioPath, text);
    written.push(scenarioPath);
    const shown = relative(process.cwd(), scenarioPath);
    log(
      `wrote ${shown}${redactedAt.length ? ` (redacted ${redactedAt.length} value${redactedAt.length > 1 ? "s" : ""}: ${redactedAt.join(", ")})` : ""}`,
    );
    if (options.captureOut) {
      const capturePath = join(resolve(options.captureOut), `${name}.json`);
      await mkdir(dirname(capturePath), { recursive: true });
      await writeFile(capturePath, `${JSON.stringify(capture, null, 2)}\n`);
      log(`wrote ${relative(process.cwd(), capturePath)} (the redacted capture)`);
    }
  }
  // What was written must be a valid scenario, like every other.
  const lint = await lintPaths(written, toolnexusSuite);
  if (lint.diagnostics.length) {
    throw new CaptureError(`the imported scenarios do not lint:\n${lint.diagnostics.map(formatDiagnostic).join("\n")}`);
  }
  return written;
}

export function registerCaptureCommands(program: Command): void {
  registerCaptureProxyCommand(program);
  program
    .command("import")
    .description("turn captured LLM exchanges (fixtures/captured/**) into replay scenarios, redacting secrets")
    .argument(
      "<inputs...>",
      "captures (JSON or YAML, conformance/schema/capture.schema.json), HAR 1.2 files, raw HTTP/1.1 request dumps or curl --trace-ascii files (told apart by content)",
    )
    .option(
      "--out <dir>",
      "where the scenarios go (the capture's folder under fixtures/captured/ is kept)",
      relative(process.cwd(), defaultCapturedScenarioDir) || ".",
    )
    .option("--redact-pattern <regex>", "also redact strings matching this (repeatable)", collect, [])
    .option("--pattern-file <file>", "redact patterns, one regex a line (default fixtures/captured/redact-patterns.txt)")
    .option(
      "--keep-header <name>",
      "also keep this header's value (repeatable); only known harmless ones (content-type, accept, user-agent, ...) are kept by default",
      collect,
      [],
    )
    .option(
      "--secret-key <word>",
      "also redact the value of keys with this word in their name (repeatable), besides key, token, secret, password, auth, cookie, session, ...",
      collect,
      [],
    )
    .option("--exact", "also assert the raw body text (byte identity); needs `raw` in the capture")
    .option("--recorded", "tag the scenarios `recorded`, so `record` fills their expected bodies from the reference")
    .option("--capture-out <dir>", "also write each redacted capture (JSON) there")
    .option(
      "--match <glob|/regex/>",
      "HAR entries to import: POSTs whose URL matches (a glob where * matches anything, or /REGEX/); default: POSTs to .../chat/completions and .../messages",
    )
    .option(
      "--reply <file>",
      "the upstream's reply (JSON or SSE text) to a raw HTTP request, in request order (repeatable); default a minimal reply",
      collect,
      [],
    )
    .option("--captured-at <time>", "provenance.capturedAt (ISO 8601) of inputs that carry no time (raw HTTP); default now")
    .option(
      "--client <file>",
      "client.create options as JSON (style, model, systemPrompt, requestParams, bodyTransform, maxTurns; prompt, history) used instead of the ones derived from the wire body",
    )
    .action(async (files: string[], options: ImportOptions) => {
      const written = await importCaptures(files, options);
      console.log(
        `imported ${written.length} capture${written.length === 1 ? "" : "s"}; run them with: npm run conformance -- run ${relative(process.cwd(), options.out ?? defaultCapturedScenarioDir) || "."}`,
      );
    });

  program
    .command("record")
    .description("run the reference on scenarios tagged `recorded` and write the bodies it sends as their expected values")
    .argument("<scenarios...>", "scenario files or folders")
    .option("--dry-run", "print the review diff only, write nothing")
    .action(async (paths: string[], options: { dryRun?: boolean }) => {
      const lint = await lintPaths(paths, toolnexusSuite);
      if (!lint.files.length) throw new Error(`no scenario files found under ${paths.join(", ")}`);
      if (lint.diagnostics.length) {
        for (const diagnostic of lint.diagnostics) console.error(formatDiagnostic(diagnostic));
        throw new Error(`refusing to record: lint found ${lint.diagnostics.length} problem(s)`);
      }
      const subject = createReferenceSubject();
      let changed = 0;
      let failed = 0;
      try {
        for (const scenario of lint.scenarios) {
          try {
            const recording = await recordScenario(scenario, subject, { write: !options.dryRun });
            console.log(`${recording.changed ? (options.dryRun ? "would change" : "recorded") : "unchanged"} ${recording.file}`);
            for (const line of recording.review) console.log(line);
            if (recording.changed) changed++;
          } catch (error) {
            if (!(error instanceof RecordError)) throw error;
            console.error(error.message);
            failed++;
          }
        }
      } finally {
        await subject.close();
      }
      console.log(
        `${changed} file${changed === 1 ? "" : "s"} ${options.dryRun ? "would change" : "changed"}, ${failed} failed` +
          (changed && !options.dryRun ? "; review the diff above, run `npm run conformance -- run` on them, then commit" : ""),
      );
      process.exitCode = failed ? 1 : 0;
    });
}
