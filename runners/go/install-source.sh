#!/usr/bin/env bash
# Builds the go runner against a toolnexus source checkout instead of the published module
# (runner.json `source`). The harness gives:
#   TNC_PORT_SOURCE  the port's folder (golang/ of a checkout); read-only, never written
#   TNC_BUILD_DIR    a folder for this runner and this exact source content; all output goes here
# The runner's own go.mod/go.sum stay untouched: a copy of them, plus
#   replace github.com/muthuishere/toolnexus/golang => $TNC_PORT_SOURCE
# is written to TNC_BUILD_DIR and used through -modfile (go keeps the go.sum beside it).
# The binary is TNC_BUILD_DIR/runner. Fast when already built: go's build cache (nothing is
# compiled again). A registry hiccup is retried (3 attempts); on failure go's
# own error is the last output.
set -uo pipefail
cd "$(dirname "$0")"

module=github.com/muthuishere/toolnexus/golang
: "${TNC_PORT_SOURCE:?TNC_PORT_SOURCE must name the port folder (golang/ of a toolnexus checkout)}"
: "${TNC_BUILD_DIR:?TNC_BUILD_DIR must name the build folder}"
if [[ ! -f "$TNC_PORT_SOURCE/go.mod" ]]; then
  echo "go runner install-source: no go.mod in $TNC_PORT_SOURCE" >&2
  exit 1
fi
declared=$(sed -n 's/^module[[:space:]]\{1,\}\([^[:space:]]*\).*/\1/p' "$TNC_PORT_SOURCE/go.mod" | head -n 1)
if [[ "$declared" != "$module" ]]; then
  echo "go runner install-source: $TNC_PORT_SOURCE/go.mod declares module '$declared', not $module" >&2
  exit 1
fi
source_dir=$(cd "$TNC_PORT_SOURCE" && pwd -P)
mkdir -p "$TNC_BUILD_DIR" || exit 1
build_dir=$(cd "$TNC_BUILD_DIR" && pwd -P)

# The generated modfile, rewritten only when what it is generated from changes (go.mod.seed keeps
# that): go itself adds the port's dependencies to it as `// indirect` requirements (-mod=mod).
modfile="$build_dir/go.mod"
wanted=$(cat go.mod; printf '\nreplace %s => %s\n' "$module" "$source_dir")
if [[ ! -f "$modfile" ]] || [[ ! -f "$build_dir/go.mod.seed" ]] || [[ "$(cat "$build_dir/go.mod.seed")" != "$wanted" ]]; then
  printf '%s\n' "$wanted" >"$modfile" && printf '%s\n' "$wanted" >"$build_dir/go.mod.seed" || exit 1
fi
# go.sum: the runner's own lines and the port's (its dependencies are now ours); go adds what is
# missing (-mod=mod) beside the modfile, never next to the runner's go.mod.
sums=(go.sum)
for sum in "$source_dir/go.sum" "$build_dir/go.sum"; do
  [[ -f "$sum" ]] && sums+=("$sum")
done
sort -u "${sums[@]}" >"$build_dir/go.sum.new" || exit 1
if cmp -s "$build_dir/go.sum.new" "$build_dir/go.sum"; then
  rm -f "$build_dir/go.sum.new"
else
  mv "$build_dir/go.sum.new" "$build_dir/go.sum" || exit 1
fi

# The port's version, if its source declares one in a file (the golang/ folder of 0.16.0 does not:
# a Go module's version is its git tag). Without one the handshake reports what the build info
# says about the replaced module: "(devel)".
ldflags="-X main.buildMode=source"
if [[ -f "$source_dir/VERSION" ]]; then
  version=$(tr -d '[:space:]' <"$source_dir/VERSION")
  [[ -n "$version" ]] && ldflags="$ldflags -X main.sourceVersion=$version"
fi

# The caller's GOFLAGS (-mod=vendor/readonly, another -modfile) must not apply; no go.work either.
export GOFLAGS=-mod=mod GOWORK=off
source ../retry.sh
with_retries "go runner install-source" go build -modfile="$modfile" -mod=mod -ldflags="$ldflags" -o "$build_dir/runner" .
