// Lint: everything that can be wrong with a scenario before it runs, each reported at file:line:column
// with what was expected, plus the coverage of SPEC.md clauses. `run` refuses to start on any of these.
import { stat } from "node:fs/promises";
import type { Assertion, FixtureStep, OperationStep, Scenario, When } from "../schema/scenario.types.ts";
import { referencedVariables } from "./variables.ts";
import { expandScenario, whenMatches, type ExpandedScenario } from "./expand.ts";
import { matrixPaths, type SuiteDefinition } from "./suite-definition.ts";
import { findScenarioFiles, readScenarioFile, type Diagnostic, type LoadedScenario, type ScenarioFile } from "./load.ts";
import { readSpecClauses, type SpecClause } from "./spec-clauses.ts";
import { compileSchema } from "../schema/validator.ts";
import { describeShape, shapeAt, stepResultShape, typesOf, type Shape } from "./operand-types.ts";
import { checkScenarioSchema, operationNames, operationValidator, toDiagnostics, type SchemaProblem } from "./validate.ts";
import { isRecord, pointerToPath } from "../common/json.ts";
import { closestName } from "./closest-name.ts";
import { defaultScenarioDir, idForPath, idMatchesPath } from "./scenario-id.ts";
import { basename, relative, resolve } from "node:path";

export interface LintResult {
  scenarios: LoadedScenario[];
  expanded: ExpandedScenario[];
  diagnostics: Diagnostic[];
  clauses: SpecClause[];
  /** Clause id -> ids of the (unexpanded) scenarios that cite it. */
  coverage: Map<string, string[]>;
  /** Every `.yaml` file read, including those that failed. */
  files: string[];
}

/** Lint `paths` (files or folders) against `suite`: its fixture kinds, capabilities and matrices. */
export async function lintPaths(paths: string[], suite: SuiteDefinition): Promise<LintResult> {
  const files = await findScenarioFiles(paths);
  const clauses = await readSpecClauses();
  const diagnostics: Diagnostic[] = [];
  const scenarios: LoadedScenario[] = [];
  const withIds: ScenarioFile[] = [];
  for (const path of files) {
    const { scenario, diagnostics: parseProblems } = await readScenarioFile(path);
    diagnostics.push(...parseProblems);
    if (parseProblems.length) continue;
    // The schema's problems and the semantic ones of the well-formed rest, in one pass.
    const schema = checkScenarioSchema(scenario);
    diagnostics.push(...schema.diagnostics);
    const problems = checkScenario(scenario, suite, new Set(clauses.map((clause) => clause.id)), schema.problems);
    diagnostics.push(...problems);
    if (!schema.diagnostics.length && !problems.length) scenarios.push(scenario as LoadedScenario);
    if (isRecord(scenario.data) && typeof scenario.data.id === "string") withIds.push(scenario);
  }
  diagnostics.push(...(await checkIds(withIds)));
  const coverage = new Map<string, string[]>(clauses.map((clause) => [clause.id, []]));
  for (const scenario of scenarios) for (const id of scenario.data.spec) coverage.get(id)?.push(scenario.data.id);
  return { scenarios, expanded: scenarios.flatMap((scenario) => expandScenario(scenario, suite)), diagnostics, clauses, coverage, files };
}

function at(scenario: ScenarioFile, path: (string | number)[], message: string, hint?: string): Diagnostic {
  return { file: scenario.file, ...scenario.locate(path), message, hint };
}

/**
 * Each id is the file's path under the scenarios folder (scenario-id.ts), and is used once. Of files
 * sharing an id (two scenario folders linted together), the oldest keeps it (by modification time,
 * then path order); every other one is blamed, naming it.
 */
async function checkIds(scenarios: ScenarioFile[]): Promise<Diagnostic[]> {
  const problems: Diagnostic[] = [];
  const byId = new Map<string, ScenarioFile[]>();
  for (const scenario of scenarios) {
    const id = (scenario.data as { id: string }).id;
    if (!idMatchesPath(scenario.file, id)) {
      const inSuite = isInside(scenario.file, defaultScenarioDir);
      const expected = inSuite ? idForPath(scenario.file, defaultScenarioDir) : basename(scenario.file).replace(/\.ya?ml$/, "");
      const hint = inSuite ? `write id: ${expected}, or move the file to match the id` : `write id: ${expected} (with the folders above it in your scenarios folder, e.g. family/${expected}), or move the file to match the id`;
      problems.push(at(scenario, ["id"], `id "${id}" is not this file's path: a scenario's id is its path under the scenarios folder, without .yaml`, hint));
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
      problems.push(at(scenario, ["id"], `duplicate scenario id "${id}": also the id of ${where}`, "lint one scenarios folder at a time, or move this file (the newer one) so its path, and so its id, differ"));
    }
  }
  return problems;
}

const isInside = (file: string, folder: string) => !relative(folder, resolve(file)).startsWith("..");

/** Whole seconds: files a checkout wrote together count as equally old. */
async function modifiedSecond(file: string): Promise<number> {
  return stat(file).then((info) => Math.floor(info.mtimeMs / 1000), () => 0);
}

/** Operations that only some ports can expose, each behind its capability (runners/PROTOCOL.md#capabilities). */
const capabilityOfOperation: Record<string, string> = { "mcp.parse": "mcp.parse" };
/** The client calls that take `abortAfterMs` (capability client.cancel). */
const clientCallOps = new Set(["client.run", "client.ask", "client.stream"]);

type Path = (string | number)[];
type Fixtures = Record<string, { kind: string; options?: unknown }>;

const startsWith = (path: Path, prefix: Path) => prefix.every((key, index) => path[index] === key);

/**
 * Where the schema found a problem the semantic checks stay away: a malformed part would only crash
 * them or repeat the schema's words. An unknown key does not make its object malformed (the known
 * keys are still checked). `except` ignores problems under one child key (a step's `expect`).
 */
function malformedParts(problems: SchemaProblem[]) {
  // `if` only repeats the precise problem of its branch, deeper down.
  const paths = problems.filter((problem) => problem.keyword !== "additionalProperties" && problem.keyword !== "if").map((problem) => problem.path);
  const malformed = (path: Path, except?: string) => paths.some((problem) => startsWith(problem, path) && !(except !== undefined && problem[path.length] === except));
  /** The node itself, not one of its children: a list or map whose entries are checked one by one. */
  const malformedItself = (path: Path) => paths.some((problem) => problem.length === path.length && startsWith(problem, path));
  return { malformed, malformedItself };
}

/**
 * Checks beyond the schema: clause ids, capabilities, fixtures, operations, variables, matchers. Run on
 * a file the schema rejected too, on the parts it found well-formed.
 */
function checkScenario(scenario: ScenarioFile, suite: SuiteDefinition, clauseIds: Set<string>, schemaProblems: SchemaProblem[] = []): Diagnostic[] {
  const { fixtureKinds, capabilities } = suite;
  const data = scenario.data;
  if (!isRecord(data)) return [];
  const { malformed, malformedItself } = malformedParts(schemaProblems);
  const problems: Diagnostic[] = [];
  const strings = (key: string) => (Array.isArray(data[key]) && !malformedItself([key]) ? (data[key] as unknown[]) : []).map((value, index) => ({ value, index })).filter(({ value, index }) => typeof value === "string" && !malformed([key, index]));
  for (const { value: id, index } of strings("spec")) {
    if (!clauseIds.has(id as string)) problems.push(at(scenario, ["spec", index], `clause "${id}" is not defined in SPEC.md`, closest(id as string, clauseIds)));
  }
  const requires = strings("requires").map(({ value }) => value as string);
  for (const { value: capability, index } of strings("requires")) {
    if (!capabilities.includes(capability as string)) {
      problems.push(at(scenario, ["requires", index], `unknown capability "${capability}"`, closest(capability as string, new Set(capabilities))));
    }
  }
  // Fixtures whose kind is unknown or malformed: their names are declared, their values unknown.
  const fixturesKnown = data.fixtures === undefined || (isRecord(data.fixtures) && !malformedItself(["fixtures"]));
  const fixtures: Fixtures = {};
  const unknownFixtures = new Set<string>();
  for (const [name, fixture] of Object.entries(isRecord(data.fixtures) ? data.fixtures : {})) {
    const kindName = isRecord(fixture) && typeof fixture.kind === "string" && !malformed(["fixtures", name]) ? fixture.kind : undefined;
    fixtures[name] = { kind: kindName ?? "", options: isRecord(fixture) ? fixture.options : undefined };
    const kind = kindName === undefined ? undefined : fixtureKinds.get(kindName);
    if (!kind) unknownFixtures.add(name);
    if (kindName === undefined) continue;
    if (!kind) {
      problems.push(at(scenario, ["fixtures", name, "kind"], `unknown fixture kind "${kindName}"`, `expected one of: ${[...fixtureKinds.keys()].join(", ")}`));
      continue;
    }
    const validateOptions = compileSchema(kind.optionsSchema);
    if (!validateOptions(fixtures[name].options ?? {})) problems.push(...toDiagnostics(validateOptions.errors ?? [], scenario, ["fixtures", name, "options"]));
  }
  const steps = Array.isArray(data.steps) && !malformedItself(["steps"]) ? (data.steps as unknown[]) : [];
  if (!malformed(["matrix"])) problems.push(...checkWhens(scenario, suite, data.matrix as Scenario["matrix"], steps, malformed));
  // Variables available so far: path.* (matrix only), FIXTURE.KEY, then captures in step order, each
  // with the shape of what it holds where that is declared.
  // The suite's path variables, for any matrix (a malformed one too: its steps still name them).
  const pathVariableNames = new Set(Object.values(suite.matrices).flatMap((paths) => paths.flatMap((path) => Object.keys(suite.pathVariables(path)))));
  const available = new Map<string, Shape | undefined>(data.matrix !== undefined ? [...pathVariableNames].map((name) => [name, { type: "string" }]) : []);
  for (const [name, fixture] of Object.entries(fixtures)) {
    for (const key of fixtureKinds.get(fixture.kind)?.varKeys ?? []) available.set(`${name}.${key}`, undefined);
  }
  // A name whose definition lint cannot see (malformed fixtures) is not reported as undefined.
  const unknowable = (name: string) => !fixturesKnown || unknownFixtures.has(name.split(".")[0]);
  const context = { fixtureKinds, fixtures, fixturesKnown, available, unknowable };
  steps.forEach((step, index) => {
    if (!isRecord(step)) return;
    const base = ["steps", index];
    const stepWellFormed = !malformed(base, "expect");
    const op = typeof step.op === "string" ? step.op : undefined;
    if (stepWellFormed) {
      if ("fixture" in step) problems.push(...checkFixtureStep(scenario, step as unknown as FixtureStep, base, context));
      else if (op !== undefined) {
        problems.push(...checkOperationStep(scenario, step as unknown as OperationStep, base, data.matrix !== undefined));
        const cancels = typeof step.with === "object" && step.with !== null && "abortAfterMs" in step.with && (clientCallOps.has(op) || op === "${path.op}");
        if (cancels && !requires.includes("client.cancel")) {
          problems.push(at(scenario, [...base, "with", "abortAfterMs"], `abortAfterMs on ${op} needs capability "client.cancel", which this scenario does not require`, "add client.cancel to requires: (a port whose calls cannot be cancelled is then skipped, not failed)"));
        }
        const needed = capabilityOfOperation[op];
        if (needed && !requires.includes(needed)) {
          problems.push(at(scenario, [...base, "op"], `operation ${op} needs capability "${needed}", which this scenario does not require`, `add ${needed} to requires: (a port that cannot ${op} is then skipped, not failed)`));
        }
        // client.stream with history (also through a matrix's ${path.op}): most ports cannot.
        const mayStream = op === "client.stream" || (op === "${path.op}" && (data.matrix === "client-paths" || JSON.stringify(data.matrix ?? []).includes("stream")));
        if (mayStream && isRecord(step.with) && step.with.history !== undefined && !requires.includes("client.stream-history")) {
          problems.push(at(scenario, [...base, "with", "history"], "client.stream with history needs capability \"client.stream-history\", which this scenario does not require", "add client.stream-history to requires: (a port whose stream call takes no prior messages is then skipped, not failed)"));
        }
      }
      for (const name of referencedVariables(step.with)) {
        if (!available.has(name) && !unknowable(name)) {
          problems.push(at(scenario, [...base, "with"], `\${${name}} is used before it is set`, hintForVariable(name, available)));
        }
      }
    }
    const result = { shape: stepResultShape("fixture" in step ? undefined : op), name: "fixture" in step ? "the fixture step's result" : `the ${op === "${path.op}" ? "client.run or client.stream" : op} result` };
    if (isRecord(step.capture)) {
      for (const [name, pointer] of Object.entries(step.capture)) available.set(name, typeof pointer === "string" ? shapeAt(result.shape, pointer) : undefined);
    }
    if (stepWellFormed) problems.push(...checkSettled(scenario, step, base, context));
    if (!Array.isArray(step.expect)) return;
    step.expect.forEach((assertion, assertionIndex) => {
      const path = [...base, "expect", assertionIndex];
      if (isRecord(assertion) && !malformed(path)) problems.push(...checkAssertion(scenario, assertion as unknown as Assertion, path, context, result));
    });
  });
  return problems;
}

interface CheckContext {
  fixtureKinds: SuiteDefinition["fixtureKinds"];
  fixtures: Fixtures;
  /** False when the scenario's `fixtures` is malformed: which names it declares is not known. */
  fixturesKnown: boolean;
  available: Map<string, Shape | undefined>;
  unknowable: (name: string) => boolean;
}

function checkFixtureStep(scenario: ScenarioFile, step: FixtureStep, base: Path, context: CheckContext): Diagnostic[] {
  const declared = context.fixtures[step.fixture];
  if (!declared) {
    if (!context.fixturesKnown) return [];
    return [at(scenario, [...base, "fixture"], `fixture "${step.fixture}" is not declared`, `declare it under fixtures:, or use one of: ${Object.keys(context.fixtures).join(", ") || "(none declared)"}`)];
  }
  const kind = context.fixtureKinds.get(declared.kind);
  if (!kind) return [];
  if (!kind.actions.includes(step.action)) {
    return [at(scenario, [...base, "action"], `fixture kind "${declared.kind}" has no action "${step.action}"`, `expected one of: ${kind.actions.join(", ") || "(none)"}`)];
  }
  // An input built from variables can only be checked when the scenario runs.
  if (!kind.checkAction || referencedVariables(step.with).size) return [];
  return kind.checkAction(step.action, step.with).map((problem) => at(scenario, [...base, "with", ...problem.path], problem.message));
}

/** A `when` outside a matrix, or one that no expansion of this scenario matches, would silently drop its step or assertion. */
function checkWhens(scenario: ScenarioFile, suite: SuiteDefinition, matrix: Scenario["matrix"], steps: unknown[], malformed: (path: Path) => boolean): Diagnostic[] {
  const paths = matrixPaths(matrix, suite);
  const problems: Diagnostic[] = [];
  const check = (when: unknown, path: Path) => {
    if (!isRecord(when) || malformed(path)) return;
    if (!paths.length) problems.push(at(scenario, path, "`when` only applies to a scenario with a matrix", "add `matrix:` or remove `when`"));
    else if (!paths.some((clientPath) => whenMatches(when as When, suite.pathVariables(clientPath)))) {
      problems.push(at(scenario, path, `this \`when\` matches none of the scenario's paths (${paths.join(", ")}), so what it guards never runs`, "fix the values or the matrix"));
    }
  };
  steps.forEach((step, index) => {
    if (!isRecord(step)) return;
    check(step.when, ["steps", index, "when"]);
    if (Array.isArray(step.expect)) step.expect.forEach((assertion, assertionIndex) => isRecord(assertion) && check(assertion.when, ["steps", index, "expect", assertionIndex, "when"]));
  });
  return problems;
}

function checkOperationStep(scenario: ScenarioFile, step: OperationStep, base: Path, isMatrix: boolean): Diagnostic[] {
  if (step.op === "${path.op}") {
    return isMatrix ? [] : [at(scenario, [...base, "op"], "${path.op} is only defined in a scenario with a matrix", "add `matrix: client-paths` or name the operation")];
  }
  const validate = operationValidator(step.op);
  if (!validate) return [at(scenario, [...base, "op"], `unknown operation "${step.op}"`, `expected one of: ${operationNames.join(", ")}`)];
  if (validate(step.with ?? {})) return [];
  // A `${...}` string stands for a value of any type: only the run can check it.
  const isVariable = (instancePath: string) => {
    const value = pointerToPath(instancePath).reduce<unknown>((node, key) => (node as Record<string | number, unknown>)?.[key], step.with);
    return typeof value === "string" && value.includes("${");
  };
  return toDiagnostics(validate.errors ?? [], scenario, [...base, "with"], (error) => isVariable(error.instancePath));
}

/** `snapshotOnSettle` names observing fixtures; `settled: true` reads one the same step lists. */
function checkSettled(scenario: ScenarioFile, step: Record<string, unknown>, base: Path, context: CheckContext): Diagnostic[] {
  const problems: Diagnostic[] = [];
  const listed = Array.isArray(step.snapshotOnSettle) ? (step.snapshotOnSettle as string[]) : [];
  listed.forEach((name, index) => {
    const declared = context.fixtures[name];
    if (!declared) {
      if (context.fixturesKnown) problems.push(at(scenario, [...base, "snapshotOnSettle", index], `fixture "${name}" is not declared`, `declare it under fixtures:, or use one of: ${Object.keys(context.fixtures).join(", ") || "(none declared)"}`));
    } else if (context.fixtureKinds.get(declared.kind)?.observes === false) {
      problems.push(at(scenario, [...base, "snapshotOnSettle", index], `fixture kind "${declared.kind}" observes nothing: its snapshot on settle could never fail an assertion`));
    }
  });
  if (!Array.isArray(step.expect)) return problems;
  step.expect.forEach((assertion, index) => {
    if (!isRecord(assertion) || assertion.settled !== true) return;
    const path = [...base, "expect", index, "settled"];
    if ("fixture" in step) problems.push(at(scenario, path, "settled: true only applies to an operation step: a fixture action has no answer to settle", "drop settled"));
    else if (typeof assertion.fixture !== "string") problems.push(at(scenario, path, "settled: true reads a fixture's snapshot taken on settle", "add fixture:, or drop settled"));
    else if (!listed.includes(assertion.fixture)) problems.push(at(scenario, path, `settled: true reads the snapshot taken on settle, but this step's snapshotOnSettle does not list fixture "${assertion.fixture}"`, `add snapshotOnSettle: [${[...listed, assertion.fixture].join(", ")}] to the step`));
    for (const key of ["eventuallyMs", "holdsForMs"]) {
      if (assertion[key] !== undefined) problems.push(at(scenario, [...base, "expect", index, key], `${key} re-reads the snapshot, but settled: true reads the one taken on settle, once`, `drop ${key}, or write a second assertion without settled`));
    }
  });
  return problems;
}

function checkAssertion(scenario: ScenarioFile, assertion: Assertion, path: Path, context: CheckContext, result: { shape: Shape; name: string }): Diagnostic[] {
  const { fixtureKinds, fixtures, available } = context;
  const problems: Diagnostic[] = [];
  let target: { shape: Shape | undefined; name: string } | undefined = result;
  if (assertion.fixture !== undefined) {
    const kind = fixtures[assertion.fixture] ? fixtureKinds.get(fixtures[assertion.fixture].kind) : undefined;
    target = kind ? { shape: kind.snapshotSchema, name: `the ${kind.kind} snapshot` } : undefined;
    if (!(assertion.fixture in fixtures)) {
      if (context.fixturesKnown) problems.push(at(scenario, [...path, "fixture"], `fixture "${assertion.fixture}" is not declared`));
    } else if (kind?.observes === false) {
      problems.push(at(scenario, [...path, "fixture"], `fixture kind "${kind.kind}" observes nothing: an assertion on its snapshot could never fail`, "assert on the subject's result instead"));
    }
  } else if (assertion.var !== undefined) {
    target = { shape: available.get(assertion.var), name: `variable "${assertion.var}"` };
    if (!available.has(assertion.var) && !context.unknowable(assertion.var)) {
      problems.push(at(scenario, [...path, "var"], `variable "${assertion.var}" is used before it is captured`, hintForVariable(assertion.var, available)));
    }
  }
  const matchers = matcherKeys.filter((key) => key in assertion);
  if (matchers.length !== 1) {
    problems.push(at(scenario, path, `an assertion needs exactly one matcher, found ${matchers.length ? matchers.join(", ") : "none"}`, `use one of: ${matcherKeys.join(", ")}`));
  }
  const expectedValue = matcherKeys.map((key) => (assertion as unknown as Record<string, unknown>)[key]).find((value) => value !== undefined);
  if (referencedVariables(expectedValue).size) {
    problems.push(at(scenario, path, "`${...}` is not substituted in expectations: it would be compared as text", "capture the value and assert with `var:`, or write the value out"));
  } else if (matchers.length === 1) {
    const problem = checkOperand(matchers[0], expectedValue, assertion.at, target);
    if (problem) problems.push(at(scenario, [...path, matchers[0]], problem.message, problem.hint));
  }
  for (const key of ["eventuallyMs", "holdsForMs"] as const) {
    if (assertion[key] !== undefined && assertion.fixture === undefined) {
      problems.push(at(scenario, [...path, key], `${key} only makes sense on a fixture snapshot`, `add fixture:, or drop ${key}`));
    }
  }
  return problems;
}

/** What each matcher needs to find at `at`, as JSON types (see conformance/README.md, Assertions). */
const operandTypes: Partial<Record<(typeof matcherKeys)[number], { types: string[]; does: string }>> = {
  atLeast: { types: ["number"], does: "compares a number" },
  atMost: { types: ["number"], does: "compares a number" },
  length: { types: ["array", "string", "object"], does: "counts the elements of a list, the characters of a string or the keys of an object" },
  setEquals: { types: ["array"], does: "compares a list" },
  orderedEquals: { types: ["array"], does: "compares a list" },
  matches: { types: ["string"], does: "tests a string" },
  jsonEquals: { types: ["string"], does: "parses a string of JSON text" },
  contains: { types: ["array", "string"], does: "looks into a list or a string" },
  notContains: { types: ["array", "string"], does: "looks into a list or a string" },
};

/**
 * A matcher that can never hold on what `at` points at, where its type is declared (the operation's
 * value in runners/PROTOCOL.md, a fixture's snapshot schema); elsewhere the run checks it.
 */
function checkOperand(matcher: (typeof matcherKeys)[number], expected: unknown, pointer: string, target: { shape: Shape | undefined; name: string } | undefined): { message: string; hint?: string } | undefined {
  if (matcher === "matches" && typeof expected === "string") {
    try {
      new RegExp(expected);
    } catch (error) {
      return { message: `\`matches\` is not a valid regular expression: ${error instanceof Error ? error.message : String(error)}`, hint: "escape ( ) [ ] { } . * + ? with a backslash to match them as text" };
    }
  }
  const shape = shapeAt(target?.shape, pointer);
  const types = typesOf(shape);
  const needs = operandTypes[matcher];
  if (!types || !needs || !target) return undefined;
  const there = `${pointer || "(the whole value)"} of ${target.name} is ${describeShape(shape)}`;
  if (!needs.types.some((type) => types.has(type))) {
    const hint = types.has("array") && (matcher === "atLeast" || matcher === "atMost")
      ? `for a list's size use \`length: N\`, or \`at: ${pointer}/0, present: true\` for "not empty"`
      : matcher === "jsonEquals" ? "to compare a value that is not JSON text, use `equals`" : undefined;
    return { message: `\`${matcher}\` ${needs.does}, but ${there}`, hint };
  }
  if (matcher !== "contains" && matcher !== "notContains") return undefined;
  // contains: a string finds text in a string, or a string element by substring; anything else finds
  // an element by JSON subset (see assert.ts). The two never cross.
  const itemTypes = typesOf(shape?.items as Shape | undefined);
  const shown = `\`${matcher}: ${typeof expected === "string" ? JSON.stringify(expected) : Array.isArray(expected) ? "[...]" : isRecord(expected) ? "{...}" : JSON.stringify(expected)}\``;
  if (typeof expected === "string") {
    if (types.has("string") || !itemTypes || itemTypes.has("string")) return undefined;
    const firstKey = Object.keys(((shape?.items as Shape).properties ?? {}) as object)[0];
    return { message: `${shown} finds a string element by substring, but ${there}`, hint: `give the keys an element must have, e.g. ${matcher}: {${firstKey ?? "key"}: ${expected}}` };
  }
  if (!types.has("array")) return { message: `${shown} finds an element of a list, but ${there}`, hint: "on a string, give the text to find" };
  if (itemTypes && !types.has("string") && [...itemTypes].every((type) => type === "string")) {
    return { message: `${shown} finds ${isRecord(expected) ? "an object element by subset" : "an element equal to it"}, but ${there}`, hint: `give the text an element contains, e.g. ${matcher}: some text` };
  }
  return undefined;
}
export const matcherKeys = [
  "equals", "subset", "absent", "present", "setEquals", "orderedEquals", "contains", "notContains",
  "length", "atMost", "atLeast", "jsonEquals", "matches", "type",
] as const;

function hintForVariable(name: string, available: ReadonlyMap<string, unknown>): string {
  return available.size ? `set it with capture: in an earlier step; available here: ${[...available.keys()].join(", ")}` : "set it with capture: in an earlier step";
}

/** "did you mean" by edit distance, when something is close. */
/** A lint hint for an unknown id: the nearest known one (a wider reach than the CLI's, as ids are long). */
function closest(word: string, candidates: Set<string>): string | undefined {
  const best = closestName(word, candidates, 3);
  return best ? `did you mean "${best}"?` : undefined;
}
