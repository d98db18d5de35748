// The capture workflow's commands (import, record), registered on the main program.
// See fixtures/captured/README.md.
import { existsSync } from "node:fs";
import { mkdir, writeFile } from "node:fs/promises";
import { basename, dirname, extname, join, relative, resolve } from "node:path";
import type { Command } from "commander";
import { repoRoot } from "../cli/paths.ts";
import { formatDiagnostic } from "../scenario/load.ts";
import { lintPaths } from "../scenario/lint.ts";
import { createReferenceSubject } from "../subjects/reference/index.ts";
import type { Capture } from "./capture.types.ts";
import { captureProblems, CaptureError, readCaptureData } from "./load.ts";
import { RecordError, recordScenario } from "./record.ts";
import { DEFAULT_PATTERNS, defaultPatternFile, readPatternFile, redact } from "./redact.ts";
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
}

/** Where a capture's scenario goes: its folder under fixtures/captured/ mirrored under --out. */
function scenarioPathFor(capturePath: string, outDir: string): string {
  const absolute = resolve(capturePath);
  const inside = relative(defaultCapturedDir, absolute);
  const sub = !inside.startsWith("..") && !inside.startsWith("/") ? dirname(inside) : ".";
  return join(resolve(outDir), sub, `${basename(absolute, extname(absolute))}.yaml`);
}

export async function patternsFor(options: Pick<ImportOptions, "patternFile" | "redactPattern">): Promise<string[]> {
  const file = options.patternFile ?? (existsSync(defaultPatternFile) ? defaultPatternFile : undefined);
  const base = file ? await readPatternFile(file) : DEFAULT_PATTERNS;
  return [...base, ...(options.redactPattern ?? [])];
}

/** Import captures as scenarios; returns the files written. Prints paths and counts, never values. */
export async function importCaptures(files: string[], options: ImportOptions, log: (line: string) => void = console.log): Promise<string[]> {
  const patterns = await patternsFor(options);
  const outDir = options.out ?? defaultCapturedScenarioDir;
  const prepared: { file: string; capture: Capture; redactedAt: string[]; scenarioPath: string }[] = [];
  const problems: string[] = [];
  for (const file of files) {
    const { value, redactedAt } = redact(await readCaptureData(file), patterns, { keepHeaders: options.keepHeader, secretKeys: options.secretKey });
    const found = captureProblems(file, value);
    if (found.length) problems.push(...found);
    else prepared.push({ file, capture: value as Capture, redactedAt, scenarioPath: scenarioPathFor(file, outDir) });
  }
  const ids = new Map<string, string>();
  for (const { file, capture } of prepared) {
    const first = ids.get(capture.id);
    if (first) problems.push(`${file}: id "${capture.id}" is also the id of ${first}`);
    ids.set(capture.id, file);
  }
  if (problems.length) throw new CaptureError(`invalid capture(s), nothing written:\n${problems.map((problem) => `  ${problem}`).join("\n")}`);

  const written: string[] = [];
  for (const { file, capture, redactedAt, scenarioPath } of prepared) {
    const text = captureToScenario(capture, { exact: options.exact, recorded: options.recorded, repoRoot, scenarioPath, capturePath: resolve(file) });
    await mkdir(dirname(scenarioPath), { recursive: true });
    await writeFile(scenarioPath, text);
    written.push(scenarioPath);
    const shown = relative(process.cwd(), scenarioPath);
    log(`wrote ${shown}${redactedAt.length ? ` (redacted ${redactedAt.length} value${redactedAt.length > 1 ? "s" : ""}: ${redactedAt.join(", ")})` : ""}`);
    if (options.captureOut) {
      const capturePath = join(resolve(options.captureOut), basename(file, extname(file)) + ".json");
      await mkdir(dirname(capturePath), { recursive: true });
      await writeFile(capturePath, `${JSON.stringify(capture, null, 2)}\n`);
      log(`wrote ${relative(process.cwd(), capturePath)} (the redacted capture)`);
    }
  }
  // What was written must be a valid scenario, like every other.
  const lint = await lintPaths(written);
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
    .argument("<captures...>", "capture files (JSON or YAML, conformance/schema/capture.schema.json)")
    .option("--out <dir>", "where the scenarios go (the capture's folder under fixtures/captured/ is kept)", relative(process.cwd(), defaultCapturedScenarioDir) || ".")
    .option("--redact-pattern <regex>", "also redact strings matching this (repeatable)", collect, [])
    .option("--pattern-file <file>", "redact patterns, one regex a line (default fixtures/captured/redact-patterns.txt)")
    .option("--keep-header <name>", "also keep this header's value (repeatable); only known harmless ones (content-type, accept, user-agent, ...) are kept by default", collect, [])
    .option("--secret-key <word>", "also redact the value of keys with this word in their name (repeatable), besides key, token, secret, password, auth, cookie, session, ...", collect, [])
    .option("--exact", "also assert the raw body text (byte identity); needs `raw` in the capture")
    .option("--recorded", "tag the scenarios `recorded`, so `record` fills their expected bodies from the reference")
    .option("--capture-out <dir>", "also write each redacted capture (JSON) there")
    .action(async (files: string[], options: ImportOptions) => {
      const written = await importCaptures(files, options);
      console.log(`imported ${written.length} capture${written.length === 1 ? "" : "s"}; run them with: npm run conformance -- run ${relative(process.cwd(), options.out ?? defaultCapturedScenarioDir) || "."}`);
    });

  program
    .command("record")
    .description("run the reference on scenarios tagged `recorded` and write the bodies it sends as their expected values")
    .argument("<scenarios...>", "scenario files or folders")
    .option("--dry-run", "print the review diff only, write nothing")
    .action(async (paths: string[], options: { dryRun?: boolean }) => {
      const lint = await lintPaths(paths);
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
