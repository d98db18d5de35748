// A port's source checkout as a subject's origin: find the port's folder in it, and name exactly
// what was built with a content hash, so a build is reused only for the very same source and a
// report never mixes a source build up with a published package.
import { createHash } from "node:crypto";
import { existsSync, statSync } from "node:fs";
import { readdir, readFile } from "node:fs/promises";
import { join, relative, resolve } from "node:path";

/** Where the harness takes a source checkout from when `--source` is not given (CI configs). */
export const sourceEnvironmentVariable = "TOOLNEXUS_SOURCE";
export const sourceCommitEnvironmentVariable = "TOOLNEXUS_SOURCE_COMMIT";

export interface PortSourceChoice {
  /** A toolnexus checkout root, or one port's folder. */
  dir: string;
  /** The commit the caller says the checkout is at (recorded, not checked). */
  commit?: string;
}

/** Folders that hold build output, dependencies or VCS data, not the port's source. */
const notSource = new Set([
  ".git",
  ".hg",
  ".svn",
  "node_modules",
  "dist",
  "build",
  "target",
  "bin",
  "obj",
  ".gradle",
  ".venv",
  "venv",
  "__pycache__",
  ".pytest_cache",
  ".mypy_cache",
]);

/**
 * The port's folder for a runner whose manifest names `subdir`: DIR/subdir when DIR is a checkout
 * root, else DIR itself (a port's own CI points at its folder). Throws with what was looked for.
 */
export function resolvePortFolder(dir: string, subdir: string): string {
  const root = resolve(dir);
  if (!existsSync(root) || !statSync(root).isDirectory())
    throw new Error(`source checkout ${root} not found (expected a toolnexus checkout root or its ${subdir}/ folder)`);
  const nested = join(root, subdir);
  if (existsSync(nested) && statSync(nested).isDirectory()) return nested;
  return root;
}

async function sourceFiles(root: string, dir = root): Promise<string[]> {
  const entries = await readdir(dir, { withFileTypes: true });
  const files: string[] = [];
  for (const entry of entries) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) {
      if (!notSource.has(entry.name)) files.push(...(await sourceFiles(root, path)));
    } else if (entry.isFile()) {
      files.push(relative(root, path));
    }
  }
  return files;
}

/** sha256 over every source file's relative path and contents, in path order: same tree, same hash. */
export async function hashPortFolder(folder: string): Promise<string> {
  const hash = createHash("sha256");
  for (const file of (await sourceFiles(folder)).sort()) {
    const contents = await readFile(join(folder, file));
    hash.update(`${file}\u0000${contents.length}\u0000`);
    hash.update(contents);
  }
  return `sha256:${hash.digest("hex")}`;
}

/** Replace {name} placeholders ({source}, {build}, {version}) in a manifest command's arguments. */
export function expandCommand(command: string[], tokens: Record<string, string>): string[] {
  return command.map((argument) =>
    Object.entries(tokens).reduce((expanded, [name, value]) => expanded.replaceAll(`{${name}}`, value), argument),
  );
}
