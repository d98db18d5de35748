#!/usr/bin/env bash
# CI's conformance job (npm run conformance:all): every scenario against every port runner, published
# and, from the port source checkout, built from source; gated on each subject's baseline. The
# reference, in-process and through the ts runner, is not run again here: npm test's vitest
# (test/suite/reference.test.ts) runs every scenario on both, requires each to pass and their step
# results to be equal (it fails when ts cannot start). With the checkout present, each port that
# builds from it here must run (--require): a build that breaks fails CI instead of turning into a
# quiet "unavailable". The suite runs in two
# shards at once; merge gates the whole: each shard's results, and baseline entries naming no scenario
# of the suite (each shard records them, no shard alone fails on them).
set -euo pipefail
cd "$(dirname "$0")/.."
# The checkout: $TOOLNEXUS_SOURCE, else package.json's config.portsCheckout (npm passes it in).
source_dir="${TOOLNEXUS_SOURCE:-${npm_package_config_portsCheckout:-../shared/ports/toolnexus-0.16.0}}"
required=(--require python)
if [[ -d "$source_dir" ]]; then
  # csharp@source needs .NET: required only where dotnet is on PATH.
  for subject in python@source go@source java@source js@source; do required+=(--require "$subject"); done
  if command -v dotnet >/dev/null; then required+=(--require csharp@source); fi
else
  echo "ci-conformance: no port source checkout at $source_dir: source subjects will be reported unavailable" >&2
fi
# --jobs 2 per shard: the two shards below run at once, so each subject has the default 4 lanes in all.
run() { npx tsx conformance/cli/main.ts run --runner all --skip reference --skip ts --jobs 2 --source "$source_dir" "${required[@]}" "$@"; }
mkdir -p out
# Every runner is installed or built first, one after another: the two shards below must not build
# the same folder at once. (One scenario; its verdict is the shards' to give.)
echo "ci-conformance: installing and building every runner (one scenario each)"
run --filter core/unknown-tool >out/ci-warmup.log 2>&1 || true
# Two shards at once: the subjects mostly wait on fixtures and timers, so two runs share two cores
# and halve the wall time (CI must stay well under 20 minutes). Each shard gates its half.
run --shard 1/2 --json out/ci-shard-1.json "$@" >out/ci-shard-1.log 2>&1 &
first=$!
run --shard 2/2 --json out/ci-shard-2.json "$@" >out/ci-shard-2.log 2>&1 &
second=$!
status=0
wait "$first" || status=1
wait "$second" || status=1
cat out/ci-shard-1.log out/ci-shard-2.log
# One report, JUnit and matrix over both halves.
npx tsx conformance/cli/main.ts merge out/ci-shard-1.json out/ci-shard-2.json \
  --json out/report.json --junit out/junit.xml --matrix out/matrix.md --html out/matrix.html || status=1
exit "$status"
