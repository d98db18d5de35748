// The fixtures a scenario declares (kind, options), the fixture steps acting on them, and the steps
// that snapshot them on settle.
import { isRecord } from "../../common/json.ts";
import { compileSchema } from "../../../runners/protocol/json-schema.ts";
import type { FixtureStep } from "../../schema/scenario.types.ts";
import type { Diagnostic, ScenarioFile } from "../load.ts";
import type { SuiteDefinition } from "../suite-definition.ts";
import { toDiagnostics } from "../validate.ts";
import { referencedVariables } from "../variables.ts";
import type { CheckContext, Fixtures } from "./context.ts";
import { at, type Path } from "./diagnostic.ts";
import type { MalformedParts } from "./malformed.ts";

export interface DeclaredFixtures {
  fixtures: Fixtures;
  /** Declared with a kind that is unknown or malformed: their names are declared, their values unknown. */
  unknownFixtures: Set<string>;
  fixturesKnown: boolean;
  problems: Diagnostic[];
}

/** `fixtures:`: each kind known to the suite, each one's options valid for its kind. */
export function declaredFixtures(
  scenario: ScenarioFile,
  data: Record<string, unknown>,
  fixtureKinds: SuiteDefinition["fixtureKinds"],
  { malformed, malformedItself }: MalformedParts,
): DeclaredFixtures {
  const fixturesKnown = data.fixtures === undefined || (isRecord(data.fixtures) && !malformedItself(["fixtures"]));
  const fixtures: Fixtures = {};
  const unknownFixtures = new Set<string>();
  const problems: Diagnostic[] = [];
  for (const [name, fixture] of Object.entries(isRecord(data.fixtures) ? data.fixtures : {})) {
    const kindName = isRecord(fixture) && typeof fixture.kind === "string" && !malformed(["fixtures", name]) ? fixture.kind : undefined;
    fixtures[name] = { kind: kindName ?? "", options: isRecord(fixture) ? fixture.options : undefined };
    const kind = kindName === undefined ? undefined : fixtureKinds.get(kindName);
    if (!kind) unknownFixtures.add(name);
    if (kindName === undefined) continue;
    if (!kind) {
      problems.push(
        at(
          scenario,
          ["fixtures", name, "kind"],
          `unknown fixture kind "${kindName}"`,
          `expected one of: ${[...fixtureKinds.keys()].join(", ")}`,
        ),
      );
      continue;
    }
    const validateOptions = compileSchema(kind.optionsSchema);
    if (!validateOptions(fixtures[name].options ?? {}))
      problems.push(...toDiagnostics(validateOptions.errors ?? [], scenario, ["fixtures", name, "options"]));
  }
  return { fixtures, unknownFixtures, fixturesKnown, problems };
}

/** A fixture step: a declared fixture, an action its kind has, an input the kind accepts. */
export function checkFixtureStep(scenario: ScenarioFile, step: FixtureStep, base: Path, context: CheckContext): Diagnostic[] {
  const declared = context.fixtures[step.fixture];
  if (!declared) {
    if (!context.fixturesKnown) return [];
    return [
      at(
        scenario,
        [...base, "fixture"],
        `fixture "${step.fixture}" is not declared`,
        `declare it under fixtures:, or use one of: ${Object.keys(context.fixtures).join(", ") || "(none declared)"}`,
      ),
    ];
  }
  const kind = context.fixtureKinds.get(declared.kind);
  if (!kind) return [];
  if (!kind.actions.includes(step.action)) {
    return [
      at(
        scenario,
        [...base, "action"],
        `fixture kind "${declared.kind}" has no action "${step.action}"`,
        `expected one of: ${kind.actions.join(", ") || "(none)"}`,
      ),
    ];
  }
  // An input built from variables can only be checked when the scenario runs.
  if (!kind.checkAction || referencedVariables(step.with).size) return [];
  return kind.checkAction(step.action, step.with).map((problem) => at(scenario, [...base, "with", ...problem.path], problem.message));
}

/** `snapshotOnSettle` names observing fixtures; `settled: true` reads one the same step lists. */
export function checkSettled(scenario: ScenarioFile, step: Record<string, unknown>, base: Path, context: CheckContext): Diagnostic[] {
  const problems: Diagnostic[] = [];
  const listed = Array.isArray(step.snapshotOnSettle) ? (step.snapshotOnSettle as string[]) : [];
  listed.forEach((name, index) => {
    const declared = context.fixtures[name];
    if (!declared) {
      if (context.fixturesKnown)
        problems.push(
          at(
            scenario,
            [...base, "snapshotOnSettle", index],
            `fixture "${name}" is not declared`,
            `declare it under fixtures:, or use one of: ${Object.keys(context.fixtures).join(", ") || "(none declared)"}`,
          ),
        );
    } else if (context.fixtureKinds.get(declared.kind)?.observes === false) {
      problems.push(
        at(
          scenario,
          [...base, "snapshotOnSettle", index],
          `fixture kind "${declared.kind}" observes nothing: its snapshot on settle could never fail an assertion`,
        ),
      );
    }
  });
  if (!Array.isArray(step.expect)) return problems;
  step.expect.forEach((assertion, index) => {
    if (!isRecord(assertion) || assertion.settled !== true) return;
    const path = [...base, "expect", index, "settled"];
    if ("fixture" in step)
      problems.push(
        at(scenario, path, "settled: true only applies to an operation step: a fixture action has no answer to settle", "drop settled"),
      );
    else if (typeof assertion.fixture !== "string")
      problems.push(at(scenario, path, "settled: true reads a fixture's snapshot taken on settle", "add fixture:, or drop settled"));
    else if (!listed.includes(assertion.fixture))
      problems.push(
        at(
          scenario,
          path,
          `settled: true reads the snapshot taken on settle, but this step's snapshotOnSettle does not list fixture "${assertion.fixture}"`,
          `add snapshotOnSettle: [${[...listed, assertion.fixture].join(", ")}] to the step`,
        ),
      );
    for (const key of ["eventuallyMs", "holdsForMs"]) {
      if (assertion[key] !== undefined)
        problems.push(
          at(
            scenario,
            [...base, "expect", index, key],
            `${key} re-reads the snapshot, but settled: true reads the one taken on settle, once`,
            `drop ${key}, or write a second assertion without settled`,
          ),
        );
    }
  });
  return problems;
}
