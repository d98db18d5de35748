// Reads scenario YAML files, keeping every node's position so that any problem found later (by the
// schema, by lint, by a failing assertion) can be reported as file:line:column.
import { readdir, readFile } from "node:fs/promises";
import { join, relative, resolve } from "node:path";
import { isMap, isNode, isScalar, type Document } from "yaml";
import { parseYamlWithPositions } from "../common/yaml-positions.ts";
import type { Scenario } from "../schema/scenario.types.ts";

export interface Position {
  line: number;
  column: number;
}

export interface Diagnostic {
  file: string;
  line: number;
  column: number;
  message: string;
  /** What would fix it, when there is something to say. */
  hint?: string;
}

export interface ScenarioFile {
  /** Path relative to the working directory, as shown in messages. */
  file: string;
  document: Document;
  /** The parsed data; `undefined` when the YAML itself did not parse. */
  data: unknown;
  /**
   * Position of the value at a path of keys and indices (with `key`, of the key itself), or of its
   * nearest existing ancestor.
   */
  locate(path: (string | number)[], options?: { key?: boolean }): Position;
}

/** A scenario whose file parsed and validated against the schema. */
export interface LoadedScenario extends ScenarioFile {
  data: Scenario;
}

export function parseScenarioText(file: string, text: string): { scenario: ScenarioFile; diagnostics: Diagnostic[] } {
  const { document, position } = parseYamlWithPositions(text, { prettyErrors: false, uniqueKeys: true });
  const locate = (path: (string | number)[], options: { key?: boolean } = {}): Position => {
    for (let depth = path.length; depth >= 0; depth--) {
      const parent = depth === 0 ? undefined : depth === 1 ? document.contents : document.getIn(path.slice(0, depth - 1), true);
      // A key that does not belong there is shown at the key; an ancestor used as a fallback too,
      // since the value of a block mapping may start lines after its key.
      if (isMap(parent) && (options.key || depth < path.length)) {
        const pair = parent.items.find((item) => isScalar(item.key) && item.key.value === path[depth - 1]);
        if (pair && isNode(pair.key) && pair.key.range) return position(pair.key.range[0]);
      }
      const node = depth === 0 ? document.contents : document.getIn(path.slice(0, depth), true);
      if (isNode(node) && node.range) return position(node.range[0]);
    }
    return { line: 1, column: 1 };
  };
  const diagnostics: Diagnostic[] = [...document.errors, ...document.warnings].map((problem) => {
    const { line, column } = position(problem.pos[0]);
    return { file, line, column, message: `YAML: ${problem.message.split("\n")[0]}`, hint: "fix the YAML syntax at this position" };
  });
  const data = document.errors.length ? undefined : document.toJS({ maxAliasCount: 100 });
  return { scenario: { file, document, data, locate }, diagnostics };
}

export async function readScenarioFile(path: string): Promise<{ scenario: ScenarioFile; diagnostics: Diagnostic[] }> {
  const text = await readFile(path, "utf8");
  return parseScenarioText(relative(process.cwd(), resolve(path)) || path, text);
}

/** Every `.yaml`/`.yml` file under the given files or folders, sorted, so runs are reproducible. */
export async function findScenarioFiles(paths: string[]): Promise<string[]> {
  const found: string[] = [];
  const walk = async (path: string): Promise<void> => {
    const entries = await readdir(path, { withFileTypes: true }).catch((error: NodeJS.ErrnoException) => {
      if (error.code === "ENOTDIR") return undefined;
      throw new Error(`cannot read scenarios at ${path}: ${error.message}`);
    });
    if (!entries) {
      found.push(path);
      return;
    }
    for (const entry of entries) {
      const child = join(path, entry.name);
      if (entry.isDirectory()) await walk(child);
      else if (/\.ya?ml$/.test(entry.name)) found.push(child);
    }
  };
  for (const path of paths) await walk(path);
  return [...new Set(found)].sort();
}

export function formatDiagnostic(diagnostic: Diagnostic): string {
  const where = `${diagnostic.file}:${diagnostic.line}:${diagnostic.column}`;
  return diagnostic.hint ? `${where}: ${diagnostic.message}\n    fix: ${diagnostic.hint}` : `${where}: ${diagnostic.message}`;
}
