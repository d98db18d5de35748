// What a report needs to be compared with another (conformance diff): the harness version that wrote
// it, and per result a hash of the scenario it ran, so a changed scenario is told from a changed subject.
import { createHash } from "node:crypto";
import { createRequire } from "node:module";
import type { Report } from "../schema/report.types.ts";
import type { ExpandedScenario } from "../scenario/expand.ts";

const require = createRequire(import.meta.url);
const harnessVersion: string = require("../../package.json").version;

/** sha256 over the scenario's parsed content and its expansion's variables: comments and layout do not count. */
export function scenarioDefinition(scenario: ExpandedScenario): string {
  const text = JSON.stringify({ scenario: scenario.source.data, vars: scenario.pathVars });
  return `sha256:${createHash("sha256").update(text).digest("hex")}`;
}

/** Sets report.harness and each result's definition (in place; a result of a scenario not given is left as it is). */
export function stampSuite(report: Report, scenarios: ExpandedScenario[]): Report {
  const definitions = new Map(scenarios.map((scenario) => [scenario.id, scenarioDefinition(scenario)]));
  report.harness = { version: harnessVersion };
  for (const result of report.results) {
    const definition = definitions.get(result.scenario);
    if (definition) result.definition = definition;
  }
  return report;
}
