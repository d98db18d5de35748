#!/usr/bin/env bash
# A port's CI gate, as the reusable workflow (.github/workflows/port-conformance.yml) runs it and as
# test/scripts/port-ci.test.ts runs it: install the packed harness into an empty folder outside any
# checkout, build the port from its source folder, run every scenario (or those --filter selects),
# write JUnit, JSON and the HTML matrix. Exit status: the harness's own (0 nothing unexpected,
# 1 unexpected result, 2 bad input).
#
#   scripts/port-ci.sh --harness toolnexus-conformance-X.tgz --runner go --source path/to/golang \
#     [--out DIR] [--commit SHA] [--baseline FILE] [--filter GLOB] [--keep]
set -euo pipefail

usage() { echo "usage: $0 --harness TARBALL|SPEC --runner NAME --source DIR [--out DIR] [--commit SHA] [--baseline FILE] [--filter GLOB] [--keep]" >&2; exit 2; }
harness="" runner="" source_dir="" out="conformance-out" commit="" baseline="" filter="" keep=""
while [[ $# -gt 0 ]]; do
  case "$1" in
    --harness) harness="$2"; shift 2 ;;
    --runner) runner="$2"; shift 2 ;;
    --source) source_dir="$2"; shift 2 ;;
    --out) out="$2"; shift 2 ;;
    --commit) commit="$2"; shift 2 ;;
    --baseline) baseline="$2"; shift 2 ;;
    --filter) filter="$2"; shift 2 ;;
    --keep) keep=1; shift ;;
    *) echo "port-ci: unknown argument $1" >&2; usage ;;
  esac
done
[[ -n "$harness" && -n "$runner" && -n "$source_dir" ]] || usage
# Paths the caller gave are theirs: resolve them before leaving their working directory.
abs() { (cd "$(dirname "$1")" && echo "$(pwd)/$(basename "$1")"); }
[[ -f "$harness" ]] && harness="$(abs "$harness")"
# Bad input fails before a minute of installing: the port's folder must be there.
[[ -d "$source_dir" ]] || { echo "port-ci: --source $source_dir: no such folder (expected the port's checkout, e.g. path/to/golang)" >&2; exit 2; }
source_dir="$(abs "$source_dir")"
[[ -n "$baseline" ]] && baseline="$(abs "$baseline")"
mkdir -p "$out" && out="$(cd "$out" && pwd)"

work="$(mktemp -d "${TMPDIR:-/tmp}/tnc-port-ci-XXXXXX")"
cleanup() { [[ -n "$keep" ]] || rm -rf "$work"; }
trap cleanup EXIT
trap 'exit 130' INT TERM

echo "port-ci: installing the harness ($harness) into $work" >&2
(cd "$work" && npm init -y >/dev/null && npm install --no-audit --no-fund --loglevel=error "$harness" >&2)

args=(run --runner "$runner" --source "$source_dir" --json "$out/report.json" --junit "$out/junit.xml" --html "$out/matrix.html" --matrix "$out/matrix.md")
[[ -n "$commit" ]] && args+=(--source-commit "$commit")
[[ -n "$baseline" ]] && args+=(--baseline "$baseline")
[[ -n "$filter" ]] && args+=(--filter "$filter")
status=0
(cd "$work" && ./node_modules/.bin/toolnexus-conformance "${args[@]}") || status=$?
echo "port-ci: reports in $out (exit $status)" >&2
exit "$status"
