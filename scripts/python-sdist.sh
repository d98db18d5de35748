#!/usr/bin/env bash
# The Python port's own source, as the package index serves it: pip downloads the sdist of the
# python runner's pinned release (runner.json `versions.pinned`, or the VERSION given) by name and it
# is unpacked into a cache folder outside the clone; prints that folder (a source checkout of the
# python port, for `--source`). CI's conformance job and test/scripts/port-ci.test.ts build
# python@source from it.
#
#   scripts/python-sdist.sh [VERSION]     ->  $XDG_CACHE_HOME/toolnexus-conformance/python-sdist/toolnexus-VERSION
#
# The cache (default ~/.cache/toolnexus-conformance/) is a download cache like pip's own: it outlives a
# clone, so a fresh clone does not download and unpack again, and nothing in it can be committed or
# packed by accident. What was built from it is named by its content hash in every report. An unpacked
# folder appears whole or not at all (unpacked beside it, then renamed). On failure pip's own words are
# on stderr and the exit status is not 0.
set -euo pipefail
cd "$(dirname "$0")/.."

fail() { echo "python-sdist: $*" >&2; exit 1; }
PYTHON="${PYTHON:-python3}"
command -v "$PYTHON" >/dev/null 2>&1 || fail "python3 not found on PATH (pip downloads the sdist)"

version="${1:-$("$PYTHON" -c 'import json, sys; print(json.load(open(sys.argv[1]))["versions"]["pinned"])' runners/python/runner.json)}" \
  || fail "cannot read versions.pinned from runners/python/runner.json"
[[ "$version" =~ ^[0-9]+(\.[0-9]+)*$ ]] || fail "not a release version: \"$version\""

cache="${XDG_CACHE_HOME:-$HOME/.cache}/toolnexus-conformance/python-sdist"
folder="$cache/toolnexus-$version"
if [[ -f "$folder/pyproject.toml" ]]; then
  echo "$folder"
  exit 0
fi
mkdir -p "$cache" || fail "cannot create the cache folder $cache"
work="$(mktemp -d "$cache/.download-XXXXXX")"
trap 'rm -rf "$work"' EXIT

download() {
  "$PYTHON" -m pip download --disable-pip-version-check --no-input \
    --no-binary :all: --no-deps --dest "$work" "toolnexus==$version"
}
source runners/retry.sh
# with_retries prints the last failure's output on stdout: stdout is this script's answer, so to stderr.
# pip listing the versions it has is a definite answer (no such release), not a hiccup: not retried.
RETRY_GIVE_UP='from versions: [0-9]' with_retries "python-sdist: pip download toolnexus==$version" download >&2 || fail "pip could not download the toolnexus $version sdist (its words above)"
archive="$work/toolnexus-$version.tar.gz"
[[ -f "$archive" ]] || fail "pip saved no toolnexus-$version.tar.gz (got: $(ls "$work"))"
tar -xzf "$archive" -C "$work" || fail "cannot unpack $archive"
[[ -f "$work/toolnexus-$version/pyproject.toml" ]] || fail "the toolnexus $version sdist has no toolnexus-$version/pyproject.toml"
# Another process may have finished first: its folder is the same release, keep it.
mv -T "$work/toolnexus-$version" "$folder" 2>/dev/null || [[ -f "$folder/pyproject.toml" ]] || fail "cannot move the unpacked sdist to $folder"
echo "$folder"
