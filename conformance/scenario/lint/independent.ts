// A step marked `independent` runs even after an earlier step failed (conformance/engine/step-gate.ts),
// so it must not read what an earlier step captured: that value is missing, or wrong, exactly when the
// earlier step failed. The handles it names are fine: the engine runs it only if their creator passed.
import type { Diagnostic, ScenarioFile } from "../load.ts";
import { referencedVariables } from "../variables.ts";
import { at, type Path } from "./diagnostic.ts";

/** Which step (0-based index) captured each variable so far. */
export type CapturedBy = ReadonlyMap<string, number>;

export function checkIndependentStep(
  scenario: ScenarioFile,
  step: Record<string, unknown>,
  base: Path,
  capturedBy: CapturedBy,
): Diagnostic[] {
  if (step.independent !== true) return [];
  const reads: { path: Path; name: string; written: string }[] = [];
  for (const key of ["op", "with"])
    for (const name of referencedVariables(step[key])) reads.push({ path: [...base, key], name, written: `\${${name}}` });
  if (Array.isArray(step.expect)) {
    step.expect.forEach((assertion: { var?: unknown }, index) => {
      if (typeof assertion?.var === "string")
        reads.push({ path: [...base, "expect", index, "var"], name: assertion.var, written: `var ${assertion.var}` });
    });
  }
  const stepNumber = Number(base[1]) + 1;
  return reads.flatMap(({ path, name, written }) => {
    const capturer = capturedBy.get(name);
    if (capturer === undefined) return [];
    return [
      at(
        scenario,
        path,
        `step ${stepNumber} is marked independent but reads ${written}, which step ${capturer + 1} captures: it builds on that step's result`,
        `remove \`independent: true\`, or write the value itself`,
      ),
    ];
  });
}
