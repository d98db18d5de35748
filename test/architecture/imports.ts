// The import graph between folders, read from the source text with TypeScript's own pre-processor
// (static imports, `export ... from`, `import("...")` and `require("...")` alike), so the layers test
// sees what the compiler and tsx would load. Only relative specifiers: packages are not our folders.
import { readdirSync, readFileSync } from "node:fs";
import { dirname, join, relative, resolve, sep } from "node:path";
import ts from "typescript";

export interface Import {
  /** The importing file and line, relative to the repository: `conformance/engine/run.ts:9`. */
  at: string;
  from: string;
  to: string;
  /** The imported file, relative to the repository. */
  target: string;
}

const sourceFile = /\.(ts|mts|cts|mjs|js)$/;
/** Caches and build output that hold no source of ours. */
const skipped = new Set(["node_modules", ".build", ".venv", "target", "bin", "obj", "__pycache__"]);

/** Every source file under `dir`, caches and build output left out. */
export function* sourceFiles(dir: string): Generator<string> {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    if (entry.isDirectory()) {
      if (!skipped.has(entry.name)) yield* sourceFiles(join(dir, entry.name));
    } else if (sourceFile.test(entry.name) && !entry.name.endsWith(".d.ts")) yield join(dir, entry.name);
  }
}

/** The folder a file belongs to in the graph: `conformance/<folder>`, `runners/<name>`, else its top folder. */
export function folderOf(path: string): string {
  const parts = path.split("/");
  return parts[0] === "conformance" || parts[0] === "runners" ? parts.slice(0, 2).join("/") : parts[0];
}

/** Every relative import from a file under `roots` (relative to `repo`), between files: `from` and `to` are the files. */
export function fileImports(repo: string, roots: string[]): Import[] {
  const found: Import[] = [];
  for (const root of roots) {
    for (const file of sourceFiles(join(repo, root))) {
      const text = readFileSync(file, "utf8");
      const from = relative(repo, file).split(sep).join("/");
      for (const imported of ts.preProcessFile(text, true, true).importedFiles) {
        if (!imported.fileName.startsWith(".")) continue;
        const to = relative(repo, resolve(dirname(file), imported.fileName))
          .split(sep)
          .join("/");
        const line = text.slice(0, imported.pos).split("\n").length;
        found.push({ at: `${from}:${line}`, from, to, target: to });
      }
    }
  }
  return found;
}

/** Every relative import from a file under `roots` (relative to `repo`) into another folder: `from` and `to` are the folders. */
export function crossFolderImports(repo: string, roots: string[]): Import[] {
  return fileImports(repo, roots)
    .map((edge) => ({ ...edge, from: folderOf(edge.from), to: folderOf(edge.to) }))
    .filter((edge) => edge.from !== edge.to);
}

/** One cycle per strongly connected group of folders (Tarjan), each hop named by one import that makes it. */
export function importCycles(imports: Import[]): Import[][] {
  const edges = new Map<string, Map<string, Import>>();
  for (const edge of imports) {
    const out = edges.get(edge.from) ?? new Map<string, Import>();
    if (!out.has(edge.to)) out.set(edge.to, edge);
    edges.set(edge.from, out);
  }
  const cycles: Import[][] = [];
  const reported = new Set<string>();
  for (const [start, out] of [...edges].sort(([a], [b]) => a.localeCompare(b))) {
    if (reported.has(start)) continue;
    // Breadth-first back to `start`: the shortest cycle through it, if any.
    const via = new Map<string, Import>();
    const queue = [...out.keys()].sort();
    for (const next of queue) via.set(next, out.get(next)!);
    for (let i = 0; i < queue.length && !via.has(`\0${start}`); i++) {
      for (const [next, edge] of [...(edges.get(queue[i]) ?? [])].sort(([a], [b]) => a.localeCompare(b))) {
        if (next === start) {
          via.set(`\0${start}`, edge);
          break;
        }
        if (!via.has(next)) {
          via.set(next, edge);
          queue.push(next);
        }
      }
    }
    const closing = via.get(`\0${start}`);
    if (!closing) continue;
    const cycle = [closing];
    for (let at = closing.from; at !== start; at = via.get(at)!.from) cycle.unshift(via.get(at)!);
    for (const edge of cycle) reported.add(edge.from);
    cycles.push(cycle);
  }
  return cycles;
}
