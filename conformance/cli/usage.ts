// Usage errors: one line saying what is wrong and where the usage is, exit 2 (nothing ran), instead
// of commander's default (the whole help text, exit 1, which reads like a test verdict).
import { existsSync } from "node:fs";
import { Command, CommanderError } from "commander";

export class UsageError extends Error {
  /** The command whose --help explains the usage: "run", or "" for the program itself; none when help would not help. */
  constructor(message: string, readonly helpCommand?: string) {
    super(message);
  }
}

/** The line after a usage error: which --help to read. */
export function usageHint(programName: string, helpCommand: string): string {
  return `(see \`${[programName, helpCommand].filter(Boolean).join(" ")} --help\` for the usage)`;
}

/** Makes commander throw a UsageError for every parse error of this command and its subcommands (main() prints it). */
export function throwUsageErrors(command: Command, helpCommand = ""): void {
  command.configureOutput({ outputError: () => undefined });
  command.exitOverride((error: CommanderError) => {
    if (error.exitCode === 0) throw error; // --help, --version: not an error
    // "error: unknown option '--filtr'\n(Did you mean --filter?)" -> one line.
    throw new UsageError(error.message.replace(/^error: /, "").replace(/\n\(Did you mean (.+)\?\)$/, "; did you mean $1?"), helpCommand);
  });
  for (const subcommand of command.commands) throwUsageErrors(subcommand, [helpCommand, subcommand.name()].filter(Boolean).join(" "));
}

/**
 * `conformance rnu`: the default command would read "rnu" as a scenario path. When the first
 * argument is no file or folder but close to a command name, it is a typo.
 */
export function commandTypo(program: Command, args: string[]): UsageError | undefined {
  const [first] = args;
  const names = [...program.commands.map((command) => command.name()), "help"];
  if (!first || first.startsWith("-") || names.includes(first) || existsSync(first)) return undefined;
  const suggestion = closestName(first, names);
  return suggestion ? new UsageError(`unknown command "${first}" (and no such file or folder); did you mean ${suggestion}?`, "") : undefined;
}

/** The candidate within a typo's reach (a swap, a missing or extra letter per 3 letters), if any. */
export function closestName(word: string, candidates: string[]): string | undefined {
  const reach = Math.max(1, Math.floor(word.length / 3));
  let best: string | undefined;
  let bestDistance = reach + 1;
  for (const candidate of candidates) {
    const distance = typoDistance(word.toLowerCase(), candidate.toLowerCase());
    if (distance < bestDistance) [best, bestDistance] = [candidate, distance];
  }
  return best;
}

/** Edit distance where swapping two neighbouring letters counts as one edit (optimal string alignment). */
function typoDistance(a: string, b: string): number {
  const rows = Array.from({ length: a.length + 1 }, (_, i) => Array.from({ length: b.length + 1 }, (_, j) => (i === 0 ? j : j === 0 ? i : 0)));
  for (let i = 1; i <= a.length; i++) {
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      rows[i][j] = Math.min(rows[i - 1][j] + 1, rows[i][j - 1] + 1, rows[i - 1][j - 1] + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) rows[i][j] = Math.min(rows[i][j], rows[i - 2][j - 2] + 1);
    }
  }
  return rows[a.length][b.length];
}
