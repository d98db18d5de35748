// Judging one assertion against its target document: the key at `at` resolved, then the matcher the
// assertion names, from the one table of matchers (scenario/matchers.ts).
import type { Difference } from "../schema/report.types.ts";
import type { Assertion } from "../schema/scenario.types.ts";
import { resolvePointer } from "../scenario/json-compare.ts";
import { matcherOf, matchers } from "../scenario/matchers.ts";

export interface AssertionOutcome {
  ok: boolean;
  matcher: string;
  message: string;
  expected?: unknown;
  actual?: unknown;
  diff?: Difference[];
}

/** Evaluate one assertion against its target document. */
export function evaluate(assertion: Assertion, target: unknown): AssertionOutcome {
  const at = assertion.at;
  const { exists, value } = resolvePointer(target, at);
  const where = at || "(whole document)";
  const fail = (matcher: string, message: string, extra: Partial<AssertionOutcome> = {}): AssertionOutcome => ({
    ok: false,
    matcher,
    message: `at ${where}: ${message}`,
    actual: exists ? value : undefined,
    ...extra,
  });
  const name = matcherOf(assertion);
  if (!name) return fail("?", exists ? "the assertion has no matcher" : "nothing there (the key does not exist)");
  const operand = (assertion as unknown as Record<string, unknown>)[name];
  // absent and present are about the key itself; every other matcher needs a value there.
  if (name === "present" && !exists) return fail(name, "expected a key, found none");
  if (!exists)
    return name === "absent"
      ? { ok: true, matcher: name, message: "" }
      : fail(name, "nothing there (the key does not exist)", { expected: operand });
  const verdict = matchers[name].judge(operand, value, at);
  if (verdict.ok) return { ok: true, matcher: name, message: "" };
  const { message, ...extra } = verdict;
  return fail(name, message, extra as { expected?: unknown; diff?: Difference[] });
}
