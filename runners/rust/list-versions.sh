#!/usr/bin/env bash
# Prints the published releases of the toolnexus crate, one per line, oldest first, yanked ones left
# out (runner.json versions.list, for `history --versions A..B`). From cargo itself: cargo has no
# command that lists a crate's versions (`cargo search` and `cargo info` show the newest only), so a
# throwaway project depending on `toolnexus = "*"` makes cargo fetch the crate's entry of its default
# registry's index; cargo keeps that entry in its index cache (CARGO_HOME/registry/index/*/.cache/,
# one JSON line per release), which is read here. Bounded retries; on failure cargo's own error is
# the last output.
set -uo pipefail
cd "$(dirname "$0")"
command -v cargo >/dev/null 2>&1 || { echo "cargo not found on PATH" >&2; exit 1; }
command -v python3 >/dev/null 2>&1 || { echo "python3 not found on PATH (reads cargo's index cache)" >&2; exit 1; }

probe="$(mktemp -d)"
trap 'rm -rf "$probe"' EXIT
mkdir -p "$probe/src" && : >"$probe/src/lib.rs"
printf '[package]\nname = "tnc-list-versions"\nversion = "0.0.0"\nedition = "2021"\n\n[dependencies]\ntoolnexus = "*"\n\n[workspace]\n' >"$probe/Cargo.toml"
resolve() { cargo generate-lockfile --manifest-path "$probe/Cargo.toml"; }
source ../retry.sh
with_retries "rust runner list-versions" resolve || exit

cargo_home="${CARGO_HOME:-$HOME/.cargo}"
shopt -s nullglob
entries=("$cargo_home"/registry/index/*/.cache/to/ol/toolnexus)
[[ ${#entries[@]} -gt 0 ]] || { echo "cargo resolved toolnexus but left no index cache entry under $cargo_home/registry/index/" >&2; exit 1; }
python3 - "${entries[@]}" <<'PY'
import json, sys
# A cache entry: a small header, then for each release its version and its index line, NUL-separated.
versions = set()
for path in sys.argv[1:]:
    for field in open(path, "rb").read().split(b"\0"):
        if not field.startswith(b"{"):
            continue
        try:
            entry = json.loads(field)
        except ValueError:
            continue
        if entry.get("name") == "toolnexus" and not entry.get("yanked", False):
            versions.add(entry["vers"])
if not versions:
    sys.exit("no toolnexus release in cargo's index cache: " + ", ".join(sys.argv[1:]))
def key(v):
    core = v.split("+")[0].split("-")[0]
    return [int(p) for p in core.split(".")], v
for v in sorted(versions, key=key):
    print(v)
PY
