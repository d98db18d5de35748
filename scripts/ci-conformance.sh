#!/usr/bin/env bash
# CI's conformance job (npm run conformance:all): every scenario against every port runner's published
# package, and against the Python port built from its own source, the sdist of its pinned release
# (scripts/python-sdist.sh), and the in-process reference, so the report and the matrix set every port
# beside the reference (and the odd one out has the reference to stand against); gated on each
# subject's baseline. The ts runner is not run again here: npm test's vitest
# (test/suite/reference.test.ts) runs every scenario in process and through ts, requires each to pass
# and their step results to be equal, which proves more than a second ts run could; the in-process
# reference stands for it in the report at about half ts's time (no runner process, no pipe).
# python, python@source and rust must run (--require) wherever this machine can obtain them: a build
# that breaks fails CI instead of turning into a quiet "unavailable". Which of them can be had here is
# npm test's one decision (TNC_OBTAINABLE, conformance/subjects/obtainability.ts; made now when the
# job runs alone): a port whose package client cannot reach its registry at all is not required, and
# said so; one whose registry refuses it stays required, and fails. A port no registry serves shows
# as unavailable, with its installer's words, and is not required.
set -euo pipefail
cd "$(dirname "$0")/.."
mkdir -p out
required=(python python@source rust)
# npm test's decision, read; or, when the job runs alone, made (and written) by the same call.
decision=(--json out/obtainable.json)
[[ -n "${TNC_OBTAINABLE:-}" ]] && decision=(--from "$TNC_OBTAINABLE")
here="$(npx tsx conformance/cli/main.ts obtainable "${decision[@]}" --heading "conformance job: the ports it requires" "${required[@]}")"
require=()
for subject in $here; do require+=(--require "$subject"); done
sources=()
if grep -qx 'python@source' <<<"$here"; then
  # The sdist is the python port's source alone: every other runner's source build is left out.
  sources=(--source "$(bash scripts/python-sdist.sh)")
  for name in $(node -e 'const { readdirSync, existsSync, readFileSync } = require("node:fs");
    for (const runner of readdirSync("runners")) {
      const manifest = `runners/${runner}/runner.json`;
      if (runner !== "python" && existsSync(manifest) && JSON.parse(readFileSync(manifest, "utf8")).source) console.log(runner);
    }'); do
    sources+=(--skip "$name@source")
  done
fi
# One run, two subjects side by side (--subjects-at-once 2), each on 4 lanes: eight scenarios at once,
# the setting scripts/flake-check.ts measured (5 runs at --jobs 8 of the reference, python and rust,
# 2026-12-02: no status varied that their baselines do not list strict: false, once
# mcp/cancel/hung-http-abort's abort came late enough for a starved port to reach the server). The
# console and the reports are those of one subject after another. (`run --shard` and `merge` stay for
# CI systems that spread one run over several machines.) Every runner installs or builds before any
# scenario starts.
npx tsx conformance/cli/main.ts run --runner all --skip ts "${sources[@]}" --jobs 4 --subjects-at-once 2 \
  "${require[@]}" --json out/report.json --junit out/junit.xml --matrix out/matrix.md --html out/matrix.html "$@"
