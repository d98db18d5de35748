#!/usr/bin/env bash
# Source mode of the js runner: builds upstream's own TypeScript port from a toolnexus checkout.
#   TNC_PORT_SOURCE  the port folder (js/ of a toolnexus checkout); READ-ONLY, never written
#   TNC_BUILD_DIR    this runner's build folder for exactly that source content
# Copies package.json, package-lock.json, tsconfig.json and src/ (not node_modules/, dist/) into
# $TNC_BUILD_DIR/port, runs `npm ci` there (bounded retries) and `tsc -p tsconfig.json`, and installs
# the runner's own helper (fast-json-patch, pinned in this folder's package-lock.json) into
# $TNC_BUILD_DIR/runner. Idempotent: nothing is redone when port/dist/index.js is newer than the
# copied sources and the copies equal the source. On failure the tool's own error is the last output.
set -uo pipefail
here="$(cd "$(dirname "$0")" && pwd)"

if [[ -z "${TNC_PORT_SOURCE:-}" || -z "${TNC_BUILD_DIR:-}" ]]; then
  echo "js runner install-source: TNC_PORT_SOURCE and TNC_BUILD_DIR must both be set" >&2
  exit 2
fi
src="$TNC_PORT_SOURCE"
for item in package.json package-lock.json tsconfig.json src; do
  if [[ ! -e "$src/$item" ]]; then
    echo "js runner install-source: $src/$item not found (is TNC_PORT_SOURCE the js/ folder of a toolnexus checkout?)" >&2
    exit 2
  fi
done
mkdir -p "$TNC_BUILD_DIR" || exit 1
port="$TNC_BUILD_DIR/port"
runner="$TNC_BUILD_DIR/runner"
items=(package.json package-lock.json tsconfig.json src)

# npm ci with bounded retries for registry hiccups; npm's own error is the last output on failure.
source "$here/../retry.sh"
npm_ci() { (cd "$1" && with_retries "js runner install-source: npm ci in $1" npm ci --no-audit --no-fund); }

# 1. The copies: refreshed only where they differ from the source (a refresh makes them newer than dist).
mkdir -p "$port" || exit 1
for item in "${items[@]}"; do
  if ! diff -rq "$src/$item" "$port/$item" >/dev/null 2>&1; then
    rm -rf "${port:?}/$item"
    cp -R "$src/$item" "$port/$item" || exit 1
    chmod -R u+w "$port/$item"   # the source is read-only; its copies must stay removable
    touch "$port/$item"
  fi
done

# 2. The port's dependencies, exactly as its lockfile pins them (again only when the lockfile changed).
if [[ ! -f "$port/node_modules/.package-lock.json" || "$port/package-lock.json" -nt "$port/node_modules/.package-lock.json" ]]; then
  npm_ci "$port" || exit 1
fi

# 3. The build: skipped when dist/index.js is newer than every copied source.
stale=1
if [[ -f "$port/dist/index.js" ]]; then
  stale=$(find "$port/package.json" "$port/package-lock.json" "$port/tsconfig.json" "$port/src" \
    "$port/node_modules/.package-lock.json" -newer "$port/dist/index.js" -print -quit | wc -l)
fi
if [[ "$stale" -ne 0 ]]; then
  rm -rf "$port/dist"
  if ! output=$(cd "$port" && npx --no -- tsc -p tsconfig.json 2>&1); then
    rm -rf "$port/dist"   # tsc emits despite errors: never leave a build that looks finished
    printf '%s\n' "$output"
    exit 1
  fi
fi

# 4. The runner's own helper (JSON Patch for bodyTransform), pinned by this folder's lockfile.
mkdir -p "$runner" || exit 1
for file in package.json package-lock.json; do
  cmp -s "$here/$file" "$runner/$file" || cp "$here/$file" "$runner/$file" || exit 1
done
if [[ ! -f "$runner/node_modules/.package-lock.json" || "$runner/package-lock.json" -nt "$runner/node_modules/.package-lock.json" ]]; then
  npm_ci "$runner" || exit 1
fi

echo "js runner: toolnexus $(node -p 'require(process.argv[1]).version' "$port/package.json") built in $port"
