// The MCP conformance suite's baseline (external/mcp-conformance/baseline.yaml): reading it, with
// file:line on every problem, and judging a run against it. Strict both ways: every scenario the suite lists is classified, every entry
// names a scenario the suite lists, and an out-of-scope scenario that passes is a stale entry.
import { readFileSync } from "node:fs";
import { isMap, isScalar, isSeq, type Node } from "yaml";
import { parseYamlWithPositions } from "../../conformance/common/yaml-positions.ts";

export interface Baseline {
  path: string;
  /** In-scope scenarios: each must pass. Value: the entry's line. */
  pass: Map<string, number>;
  /** Out-of-scope scenarios: each must fail when run. */
  outOfScope: Map<string, { reason: string; line: number }>;
}

export class BaselineError extends Error {}

export function loadBaseline(path: string, text = readFileSync(path, "utf8")): Baseline {
  const { document, lineOf, firstError } = parseYamlWithPositions(text);
  const fail = (node: Node | null | undefined, what: string): never => {
    throw new BaselineError(`${path}:${lineOf(node)}: ${what}`);
  };
  const syntaxError = firstError(path);
  if (syntaxError) throw new BaselineError(syntaxError);
  const root = document.contents;
  if (!isMap(root)) return fail(root, "expected a mapping with the keys pass and out-of-scope");
  const baseline: Baseline = { path, pass: new Map(), outOfScope: new Map() };
  const seen = new Map<string, number>();
  const claim = (name: string, node: Node) => {
    if (seen.has(name)) fail(node, `scenario "${name}" is listed twice (first at line ${seen.get(name)})`);
    seen.set(name, lineOf(node));
  };
  for (const pair of root.items) {
    const key = isScalar(pair.key) ? pair.key.value : undefined;
    const value = pair.value as Node | null;
    if (key === "pass") {
      if (!isSeq(value)) fail(value ?? (pair.key as Node), "pass: expected a list of scenario names");
      for (const item of (value as unknown as { items: Node[] }).items) {
        if (!isScalar(item) || typeof item.value !== "string" || item.value === "")
          fail(item, "pass: expected a scenario name (a non-empty string)");
        const name = (item as { value: string }).value;
        claim(name, item);
        baseline.pass.set(name, lineOf(item));
      }
    } else if (key === "out-of-scope") {
      if (!isMap(value)) fail(value ?? (pair.key as Node), "out-of-scope: expected a mapping of scenario name -> reason");
      for (const entry of (value as unknown as { items: { key: Node; value: Node | null }[] }).items) {
        const name = isScalar(entry.key) ? entry.key.value : undefined;
        if (typeof name !== "string" || name === "") fail(entry.key, "out-of-scope: expected a scenario name as key");
        if (!isScalar(entry.value) || typeof entry.value.value !== "string" || entry.value.value.trim() === "") {
          fail(entry.value ?? entry.key, `out-of-scope: "${name}": expected a reason (a non-empty string)`);
        }
        claim(name as string, entry.key);
        baseline.outOfScope.set(name as string, { reason: (entry.value as { value: string }).value, line: lineOf(entry.key) });
      }
    } else {
      fail(pair.key as Node, `unknown key ${JSON.stringify(key)}: expected pass or out-of-scope`);
    }
  }
  return baseline;
}

export interface ScenarioRun {
  scenario: string;
  passed: boolean;
  /** Why it failed: the suite's failed checks, the client's exit, a timeout. */
  detail: string[];
  ms: number;
}

export interface Verdict {
  /** One line per scenario run, in run order. */
  lines: string[];
  /** Everything that fails the gate; empty means exit 0. */
  problems: string[];
}

/** Compare the suite's scenario list and the runs with the baseline. */
export function judge(baseline: Baseline, listed: string[], runs: ScenarioRun[]): Verdict {
  const lines: string[] = [];
  const problems: string[] = [];
  const listedSet = new Set(listed);
  for (const name of listed) {
    if (!baseline.pass.has(name) && !baseline.outOfScope.has(name)) {
      problems.push(
        `unclassified scenario "${name}": the suite lists it, ${baseline.path} does not; add it under pass (a tool loader must pass it) or out-of-scope (with the reason)`,
      );
    }
  }
  const entries: [string, number][] = [
    ...baseline.pass,
    ...[...baseline.outOfScope].map(([name, { line }]) => [name, line] as [string, number]),
  ];
  for (const [name, line] of entries) {
    if (!listedSet.has(name))
      problems.push(`stale baseline entry "${name}" (${baseline.path}:${line}): the suite lists no such client scenario; remove it`);
  }
  for (const run of runs) {
    const seconds = `${(run.ms / 1000).toFixed(1)} s`;
    const outOfScope = baseline.outOfScope.get(run.scenario);
    if (baseline.pass.has(run.scenario)) {
      if (run.passed) lines.push(`PASS   ${run.scenario} ${seconds}`);
      else {
        lines.push(`FAIL   ${run.scenario} ${seconds}`, ...run.detail.map((text) => `       ${text}`));
        problems.push(`"${run.scenario}" failed, and ${baseline.path}:${baseline.pass.get(run.scenario)} says it must pass`);
      }
    } else if (outOfScope) {
      if (run.passed) {
        lines.push(`XPASS  ${run.scenario} ${seconds}`);
        problems.push(`stale baseline entry "${run.scenario}" (${baseline.path}:${outOfScope.line}): it passed; move it under pass`);
      } else lines.push(`XFAIL  ${run.scenario} ${seconds} (${outOfScope.reason})`);
    } else {
      lines.push(
        `${run.passed ? "PASS" : "FAIL"}   ${run.scenario} ${seconds} (unclassified)`,
        ...run.detail.map((text) => `       ${text}`),
      );
    }
  }
  return { lines, problems };
}
