// What of the runners can be checked without their port: that each source file parses. The go, java,
// js and csharp ports come from no registry, so CI cannot build those runners; this still catches a
// runner file broken by an edit. The language's own tool reads each file (node --check, py_compile,
// gofmt -e, bash -n); each check is also run once on a planted syntax error, so it is seen to fail.
import { execFile } from "node:child_process";
import { existsSync, readdirSync } from "node:fs";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { delimiter, join, relative } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

const root = fileURLToPath(new URL("../../", import.meta.url));
const runners = join(root, "runners");
/** Build output and installed dependencies: not the runners' own files. */
const notOurs = new Set([".build", ".venv", "node_modules", "target", "bin", "obj", "__pycache__"]);

function filesEndingIn(extension: string, dir = runners): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return notOurs.has(entry.name) ? [] : filesEndingIn(extension, path);
    return entry.isFile() && entry.name.endsWith(extension) ? [path] : [];
  });
}

const onPath = (tool: string) => (process.env.PATH ?? "").split(delimiter).some((dir) => existsSync(join(dir, tool)));

let scratch: string;
beforeAll(async () => {
  scratch = await mkdtemp(join(tmpdir(), "tnc-runner-syntax-"));
});
afterAll(async () => {
  if (scratch) await rm(scratch, { recursive: true, force: true });
});

interface Checker {
  /** The tool on PATH the check needs. */
  tool: string;
  extension: string;
  command: (file: string) => string[];
  /** A file of that language with a syntax error. */
  planted: string;
}

const checkers: Record<string, Checker> = {
  "node --check": { tool: "node", extension: ".mjs", command: (file) => ["node", "--check", file], planted: "export function broken( {\n" },
  // The bytecode goes to the scratch folder (PYTHONPYCACHEPREFIX below), never into runners/.
  "python -m py_compile": {
    tool: "python3",
    extension: ".py",
    command: (file) => ["python3", "-m", "py_compile", file],
    planted: "def broken(:\n    pass\n",
  },
  // Parses without the port's module (go vet would need it); formatting differences are not errors.
  "gofmt -e": {
    tool: "gofmt",
    extension: ".go",
    command: (file) => ["gofmt", "-l", "-e", file],
    planted: "package main\n\nfunc broken( {\n}\n",
  },
  "bash -n": { tool: "bash", extension: ".sh", command: (file) => ["bash", "-n", file], planted: "if true; then\n  echo unclosed\n" },
  // The .NET SDK's own compiler (Roslyn's csc.dll), with no references, no port and no NuGet: csc binds
  // nothing while a file has a syntax error, so a sentinel file's unknown base type is reported exactly
  // when the file parsed. Exit 0 on that; otherwise csc's syntax errors (naming the file) are the complaint.
  "csc, parse only": {
    tool: "dotnet",
    extension: ".cs",
    command: (file) => [
      "bash",
      "-c",
      [
        'sdk="$(dirname "$(readlink -f "$(command -v dotnet)")")/sdk"',
        'csc=$(ls -d "$sdk"/*/Roslyn/bincore/csc.dll 2>/dev/null | sort -V | tail -n 1)',
        '[[ -n "$csc" ]] || { echo "no Roslyn csc.dll under $sdk" >&2; exit 2; }',
        "dir=$(mktemp -d) && trap 'rm -rf \"$dir\"' EXIT",
        "printf 'class TncParseSentinel : TncEveryFileParsed {}\\n' >\"$dir/sentinel.cs\"",
        'out=$(dotnet exec "$csc" -nologo -noconfig -nostdlib -t:library -langversion:latest -out:"$dir/x.dll" "$dir/sentinel.cs" "$1" 2>&1)',
        'grep -q TncEveryFileParsed <<<"$out" && exit 0',
        'grep "error CS" <<<"$out" >&2 || printf "%s\\n" "$out" >&2',
        "exit 1",
      ].join("\n"),
      "csc-parse",
      file,
    ],
    planted: "class Broken {\n  void M( {\n}\n",
  },
};

/** The tool's complaint about one file, or undefined when it parses. */
function problemWith(checker: Checker, file: string): Promise<string | undefined> {
  const [program, ...args] = checker.command(file);
  return new Promise((resolve) => {
    execFile(
      program,
      args,
      { timeout: 30_000, env: { ...process.env, PYTHONPYCACHEPREFIX: join(scratch, "pycache") } },
      (error, _stdout, stderr) => {
        resolve(error ? `${relative(root, file)}: ${stderr.trim() || error.message}` : undefined);
      },
    );
  });
}

async function problemsWith(checker: Checker, files: string[]): Promise<string[]> {
  return (await Promise.all(files.map((file) => problemWith(checker, file)))).filter((problem): problem is string => problem !== undefined);
}

describe("every runner source file parses, without its port", () => {
  for (const [name, checker] of Object.entries(checkers)) {
    const files = filesEndingIn(checker.extension);
    it(`${name}: runners/**/*${checker.extension} (${files.length} files; skipped only where ${checker.tool} is not on PATH)`, async ({
      skip,
    }) => {
      skip(!onPath(checker.tool), `${checker.tool} is not on PATH: runners/**/*${checker.extension} not checked`);
      expect(files.length, `no runners/**/*${checker.extension} found`).toBeGreaterThan(0);
      expect(await problemsWith(checker, files)).toEqual([]);
      // The same check on a planted syntax error must complain, naming the file.
      const planted = join(scratch, `planted${checker.extension}`);
      await writeFile(planted, checker.planted);
      const [problem] = await problemsWith(checker, [planted]);
      expect(problem, `${name} accepted a planted syntax error`).toContain("planted");
    }, 60_000);
  }
});
