// Each id is the file's path under the scenarios folder (scenario-id.ts), and is used once.
import { stat } from "node:fs/promises";
import { basename, relative, resolve } from "node:path";
import type { Diagnostic, ScenarioFile } from "../load.ts";
import { defaultScenarioDir, idForPath, idMatchesPath } from "../scenario-id.ts";
import { at } from "./diagnostic.ts";

/**
 * Of files sharing an id (two scenario folders linted together), the oldest keeps it (by modification
 * time, then path order); every other one is blamed, naming it.
 */
export async function checkIds(scenarios: ScenarioFile[]): Promise<Diagnostic[]> {
  const problems: Diagnostic[] = [];
  const byId = new Map<string, ScenarioFile[]>();
  for (const scenario of scenarios) {
    const id = (scenario.data as { id: string }).id;
    if (!idMatchesPath(scenario.file, id)) {
      const inSuite = isInside(scenario.file, defaultScenarioDir);
      const expected = inSuite ? idForPath(scenario.file, defaultScenarioDir) : basename(scenario.file).replace(/\.ya?ml$/, "");
      const hint = inSuite
        ? `write id: ${expected}, or move the file to match the id`
        : `write id: ${expected} (with the folders above it in your scenarios folder, e.g. family/${expected}), or move the file to match the id`;
      problems.push(
        at(
          scenario,
          ["id"],
          `id "${id}" is not this file's path: a scenario's id is its path under the scenarios folder, without .yaml`,
          hint,
        ),
      );
      continue;
    }
    byId.set(id, [...(byId.get(id) ?? []), scenario]);
  }
  for (const [id, sharing] of byId) {
    if (sharing.length < 2) continue;
    const modified = new Map(await Promise.all(sharing.map(async (scenario) => [scenario, await modifiedSecond(scenario.file)] as const)));
    const keeper = sharing.reduce((kept, scenario) => (modified.get(scenario)! < modified.get(kept)! ? scenario : kept));
    for (const scenario of sharing) {
      if (scenario === keeper) continue;
      const where = `${keeper.file}:${keeper.locate(["id"]).line}`;
      problems.push(
        at(
          scenario,
          ["id"],
          `duplicate scenario id "${id}": also the id of ${where}`,
          "lint one scenarios folder at a time, or move this file (the newer one) so its path, and so its id, differ",
        ),
      );
    }
  }
  return problems;
}

const isInside = (file: string, folder: string) => !relative(folder, resolve(file)).startsWith("..");

/** Whole seconds: files a checkout wrote together count as equally old. */
async function modifiedSecond(file: string): Promise<number> {
  return stat(file).then(
    (info) => Math.floor(info.mtimeMs / 1000),
    () => 0,
  );
}
