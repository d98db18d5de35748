#!/usr/bin/env bash
# npm run mutate:gate: Stryker over the harness's own gate (stryker.gate.config.mjs), in sittings: each
# module judged by its own in-process tests (a test that spawns the CLI runs unmutated code in its child,
# so it can only wait, never kill), each sitting with its own incremental state and report under
# out/mutation/, then one score over all of them. `scripts/mutate-gate.sh baseline expand` runs only those.
set -euo pipefail
cd "$(dirname "$0")/.."

declare -A files tests
files[baseline]="conformance/report/baseline.ts"
tests[baseline]="test/conformance/report/judge.test.ts test/conformance/report/baseline-measured.test.ts test/conformance/report/console-report.test.ts"
files[baseline-update]="conformance/report/baseline-update.ts"
tests[baseline-update]="test/conformance/report/baseline-update.test.ts"
files[expand]="conformance/scenario/expand.ts"
tests[expand]="test/conformance/scenario/expand.test.ts test/conformance/scenario/operand-types.test.ts"
files[redact]="conformance/capture/redact.ts"
tests[redact]="test/conformance/capture/redact.test.ts test/conformance/capture/capture.test.ts test/conformance/capture/import.test.ts test/conformance/capture/proxy.test.ts"
files[engine]="conformance/engine/**/*.ts"
tests[engine]="test/conformance/engine/**/*.test.ts"
order=(baseline baseline-update expand redact engine)

sittings=("$@")
[[ ${#sittings[@]} -gt 0 ]] || sittings=("${order[@]}")
for name in "${sittings[@]}"; do
  [[ -n "${files[$name]:-}" ]] || { echo "mutate-gate: no sitting $name (${order[*]})" >&2; exit 2; }
  echo "mutate-gate: $name (${files[$name]})" >&2
  TNC_MUTATE_RUN="gate-$name" TNC_MUTATE_FILES="${files[$name]}" TNC_GATE_TESTS="${tests[$name]}" npx stryker run stryker.gate.config.mjs
done
reports=()
for name in "${order[@]}"; do [[ -f "out/mutation/gate-$name.json" ]] && reports+=("out/mutation/gate-$name.json"); done
npx tsx scripts/mutation-score.ts "${reports[@]}" conformance/EQUIVALENT-MUTANTS.yaml
