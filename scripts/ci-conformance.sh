#!/usr/bin/env bash
# CI's conformance job (npm run conformance:all): every scenario against every port runner's published
# package, and against the Python port built from its own source, the sdist of its pinned release
# (scripts/python-sdist.sh), and the in-process reference, so the report and the matrix set every port
# beside the reference (and the odd one out has the reference to stand against); gated on each
# subject's baseline. The ts runner is not run again here: npm test's vitest
# (test/suite/reference.test.ts) runs every scenario in process and through ts, requires each to pass
# and their step results to be equal, which proves more than a second ts run could; the in-process
# reference stands for it in the report at about half ts's time (no runner process, no pipe).
# python, python@source and rust must run (--require): a build that breaks fails CI instead of
# turning into a quiet "unavailable". A port no registry serves shows as unavailable, with its
# installer's words, and is not required. The suite runs in two shards at once; merge gates the whole:
# each shard's results, and baseline entries naming no scenario of the suite (each shard records them,
# no shard alone fails on them).
set -euo pipefail
cd "$(dirname "$0")/.."
# The sdist is the python port's source alone: every other runner's source build is left out.
python_source="$(bash scripts/python-sdist.sh)"
other_sources=()
for name in $(node -e 'const { readdirSync, existsSync, readFileSync } = require("node:fs");
  for (const runner of readdirSync("runners")) {
    const manifest = `runners/${runner}/runner.json`;
    if (runner !== "python" && existsSync(manifest) && JSON.parse(readFileSync(manifest, "utf8")).source) console.log(runner);
  }'); do
  other_sources+=(--skip "$name@source")
done
# --jobs 2 per shard: the two shards below run at once, so each subject has the default 4 lanes in all.
run() {
  npx tsx conformance/cli/main.ts run --runner all --skip ts "${other_sources[@]}" --jobs 2 \
    --source "$python_source" --require python --require python@source --require rust "$@"
}
mkdir -p out
# Every runner is installed or built first (all at once: `run` starts every subject's install together,
# each in its own folder), so the two shards below never build the same folder at once. (One
# scenario; its verdict is the shards' to give.)
echo "ci-conformance: installing and building every runner (one scenario each)"
run --filter core/unknown-tool >out/ci-warmup.log 2>&1 || true
# Two shards at once: the subjects mostly wait on fixtures and timers, so two runs share two cores
# and halve the wall time. Each shard gates its half.
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
