// Assertions: a declared target, exactly one matcher, and a matcher that can hold on what `at` points
// at where its type is declared (operand-types.ts; what each matcher needs: matchers.ts).
import { isRecord } from "../../common/json.ts";
import type { Assertion } from "../../schema/scenario.types.ts";
import type { Diagnostic, ScenarioFile } from "../load.ts";
import { describeShape, shapeAt, typesOf, type Shape } from "../operand-types.ts";
import { referencedVariables } from "../variables.ts";
import type { CheckContext } from "./context.ts";
import { at, hintForVariable, type Path } from "./diagnostic.ts";
import { matcherNames, matchers as matcherTable, type Matcher, type MatcherName } from "../matchers.ts";

/** What an assertion reads: a step result, a fixture's snapshot or a variable, and its name for messages. */
export interface AssertionTarget {
  shape: Shape | undefined;
  name: string;
}

export function checkAssertion(
  scenario: ScenarioFile,
  assertion: Assertion,
  path: Path,
  context: CheckContext,
  result: AssertionTarget,
): Diagnostic[] {
  const { fixtureKinds, fixtures, available } = context;
  const problems: Diagnostic[] = [];
  let target: AssertionTarget | undefined = result;
  if (assertion.fixture !== undefined) {
    const kind = fixtures[assertion.fixture] ? fixtureKinds.get(fixtures[assertion.fixture].kind) : undefined;
    target = kind ? { shape: kind.snapshotSchema, name: `the ${kind.kind} snapshot` } : undefined;
    if (!(assertion.fixture in fixtures)) {
      if (context.fixturesKnown) problems.push(at(scenario, [...path, "fixture"], `fixture "${assertion.fixture}" is not declared`));
    } else if (kind?.observes === false) {
      problems.push(
        at(
          scenario,
          [...path, "fixture"],
          `fixture kind "${kind.kind}" observes nothing: an assertion on its snapshot could never fail`,
          "assert on the subject's result instead",
        ),
      );
    }
  } else if (assertion.var !== undefined) {
    target = { shape: available.get(assertion.var), name: `variable "${assertion.var}"` };
    if (!available.has(assertion.var) && !context.unknowable(assertion.var)) {
      problems.push(
        at(
          scenario,
          [...path, "var"],
          `variable "${assertion.var}" is used before it is captured`,
          hintForVariable(assertion.var, available),
        ),
      );
    }
  }
  const matchers = matcherNames.filter((key) => key in assertion);
  if (matchers.length !== 1) {
    problems.push(
      at(
        scenario,
        path,
        `an assertion needs exactly one matcher, found ${matchers.length ? matchers.join(", ") : "none"}`,
        `use one of: ${matcherNames.join(", ")}`,
      ),
    );
  }
  const expectedValue = matcherNames
    .map((key) => (assertion as unknown as Record<string, unknown>)[key])
    .find((value) => value !== undefined);
  if (referencedVariables(expectedValue).size) {
    problems.push(
      at(
        scenario,
        path,
        "`${...}` is not substituted in expectations: it would be compared as text",
        "capture the value and assert with `var:`, or write the value out",
      ),
    );
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

/**
 * A matcher that can never hold on what `at` points at, where its type is declared (the operation's
 * value in runners/PROTOCOL.md, a fixture's snapshot schema); elsewhere the run checks it.
 */
function checkOperand(
  matcher: MatcherName,
  expected: unknown,
  pointer: string,
  target: AssertionTarget | undefined,
): { message: string; hint?: string } | undefined {
  if (matcher === "matches" && typeof expected === "string") {
    try {
      new RegExp(expected);
    } catch (error) {
      return {
        message: `\`matches\` is not a valid regular expression: ${error instanceof Error ? error.message : String(error)}`,
        hint: "escape ( ) [ ] { } . * + ? with a backslash to match them as text",
      };
    }
  }
  const shape = shapeAt(target?.shape, pointer);
  const types = typesOf(shape);
  const needs = (matcherTable[matcher] as Matcher).operand;
  if (!types || !needs || !target) return undefined;
  const there = `${pointer || "(the whole value)"} of ${target.name} is ${describeShape(shape)}`;
  if (!needs.types.some((type) => types.has(type))) {
    const hint =
      types.has("array") && (matcher === "atLeast" || matcher === "atMost")
        ? `for a list's size use \`length: N\`, or \`at: ${pointer}/0, present: true\` for "not empty"`
        : matcher === "jsonEquals"
          ? "to compare a value that is not JSON text, use `equals`"
          : undefined;
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
    return {
      message: `${shown} finds a string element by substring, but ${there}`,
      hint: `give the keys an element must have, e.g. ${matcher}: {${firstKey ?? "key"}: ${expected}}`,
    };
  }
  if (!types.has("array"))
    return { message: `${shown} finds an element of a list, but ${there}`, hint: "on a string, give the text to find" };
  if (itemTypes && !types.has("string") && [...itemTypes].every((type) => type === "string")) {
    return {
      message: `${shown} finds ${isRecord(expected) ? "an object element by subset" : "an element equal to it"}, but ${there}`,
      hint: `give the text an element contains, e.g. ${matcher}: some text`,
    };
  }
  return undefined;
}
