// Mutation testing of the harness's own gate (npm run mutate:gate; README "Mutation testing"): a bug in
// the code that runs a scenario, judges it, applies a baseline or redacts a capture could turn a
// failure into a pass (or a secret into plain text) for every port at once, and no port's result would
// show it. Each mutant of those files is judged by the harness's own tests (vitest.mutate-gate.config.ts),
// with the reference's rules: incremental runs, survivors that cannot change behaviour listed with a
// reason (conformance/EQUIVALENT-MUTANTS.yaml), the score per folder by scripts/mutation-score.ts.
// TNC_MUTATE_FILES narrows `mutate` and TNC_MUTATE_RUN names the run, as for the reference;
// scripts/mutate-gate.sh runs it in sittings, one module each with its own tests (TNC_GATE_TESTS).
import reference from "./stryker.config.mjs";

const gate = [
  "conformance/engine/**/*.ts",
  "conformance/report/baseline.ts",
  "conformance/scenario/expand.ts",
  "conformance/scenario/matchers.ts",
  "conformance/scenario/json-compare.ts",
  "conformance/capture/redact.ts",
];
const files = (process.env.TNC_MUTATE_FILES ?? "").split(" ").filter(Boolean);
const run = process.env.TNC_MUTATE_RUN ?? "gate";
const output = (name) => `out/mutation/${run}${name}`;

/** @type {import('@stryker-mutator/api/core').PartialStrykerOptions} */
export default {
  ...reference,
  vitest: { configFile: "vitest.mutate-gate.config.ts", related: false },
  mutate: files.length ? files : gate,
  // The harness's tests are unit tests and short runs against fakes: a mutant that hangs one is
  // caught well before the reference's 20 s allowance.
  timeoutMS: 10_000,
  // Stryker would prepend @ts-nocheck to the sandbox's TypeScript, which the harness's own test of the
  // generated types reads (and fails on); vitest strips types without checking them, so nothing needs it.
  disableTypeChecks: false,
  incrementalFile: output("-incremental.json"),
  htmlReporter: { fileName: output(".html") },
  jsonReporter: { fileName: output(".json") },
};
