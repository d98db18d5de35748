// The scenarios a command runs: lint first (nothing runs while it finds problems, each printed at
// file:line), then the id filters and tags (and a shard). `run`, `list` and `history` pick them the same way.
import picomatch from "picomatch";
import type { ExpandedScenario } from "../scenario/expand.ts";
import { lintPaths, type LintResult } from "../scenario/lint.ts";
import { formatDiagnostic } from "../scenario/load.ts";
import { defaultScenarioDir } from "../scenario/scenario-id.ts";
import { toolnexusSuite } from "../suite/toolnexus.ts";
import { UsageError } from "../common/usage-error.ts";

/** Lint the given paths (the whole suite when none); a path with no scenario files is a usage error. */
export async function lintOrExplain(paths: string[], options: { boundaries?: boolean } = {}): Promise<LintResult> {
  const lint = await lintPaths(paths.length ? paths : [defaultScenarioDir], toolnexusSuite, options);
  if (!lint.files.length) throw new UsageError(`no scenario files found under ${paths.join(", ") || defaultScenarioDir}`);
  return lint;
}

/** Lint, refuse on any problem, then keep the scenarios matching any filter and every tag; none is a usage error. */
export async function scenariosToRun(paths: string[], filters: string[], tags: string[]): Promise<ExpandedScenario[]> {
  const lint = await lintOrExplain(paths);
  if (lint.diagnostics.length) {
    for (const diagnostic of lint.diagnostics) console.error(formatDiagnostic(diagnostic));
    throw new UsageError(
      `refusing to run: lint found ${lint.diagnostics.length} problem(s); see above or run \`npm run conformance -- lint\``,
    );
  }
  const scenarios = selectScenarios(lint.expanded, filters.length ? picomatch(filters) : undefined, tags);
  if (!scenarios.length) throw new UsageError("no scenario matches the filter");
  return scenarios;
}

/**
 * Every scenario id, when the selection (before any shard) is the whole suite: only then can a baseline
 * entry naming no selected scenario be called stale. Undefined for a narrowed run.
 */
export function wholeSuiteIds(
  scenarios: ExpandedScenario[],
  selection: { paths: string[]; filters: string[]; tags: string[] },
): Set<string> | undefined {
  const narrowed = selection.paths.length > 0 || selection.filters.length > 0 || selection.tags.length > 0;
  return narrowed ? undefined : new Set(scenarios.map((scenario) => scenario.id));
}

/** Scenario selection shared by run and list: a glob on the expanded id, and tags. */
export function selectScenarios(
  scenarios: ExpandedScenario[],
  filter: ((id: string) => boolean) | undefined,
  tags: string[],
): ExpandedScenario[] {
  return scenarios.filter(
    (scenario) => (!filter || filter(scenario.id) || filter(scenario.baseId)) && tags.every((tag) => scenario.tags.includes(tag)),
  );
}

/** Shard i of n (1-based): every n-th scenario, so shards get a similar mix of slow and fast ones. */
export function shard<T>(items: T[], index: number, count: number): T[] {
  return items.filter((_, position) => position % count === index - 1);
}
