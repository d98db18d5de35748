// Loading apart from linting: scenario files to expanded scenarios, trusting them (no schema, no
// checks, no coverage). For what runs a suite already linted, or linted elsewhere: a mutation run's
// suite pass, which must not spend its budget on lint. A file that does not even parse still stops
// it, at the file's line. `run` lints first (lint.ts), which reads and expands the same way.
import { expandScenario, type ExpandedScenario } from "./expand.ts";
import { findScenarioFiles, formatDiagnostic, readScenarioFile, type LoadedScenario } from "./load.ts";
import type { SuiteDefinition } from "./suite-definition.ts";

export async function loadExpanded(paths: string[], suite: SuiteDefinition): Promise<ExpandedScenario[]> {
  const files = await findScenarioFiles(paths);
  const loaded = await Promise.all(
    files.map(async (file) => {
      const { scenario, diagnostics } = await readScenarioFile(file);
      if (diagnostics.length) throw new Error(diagnostics.map(formatDiagnostic).join("\n"));
      return scenario as LoadedScenario;
    }),
  );
  return loaded.flatMap((scenario) => expandScenario(scenario, suite));
}
