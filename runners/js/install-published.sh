#!/usr/bin/env bash
# Published mode of the js runner: installs the npm package `toolnexus`, pinned 0.16.0, and the
# runner's helper (fast-json-patch 3.1.1) into .build/published next to this script. Idempotent and
# fast when already installed; registry hiccups are retried (3 attempts); on failure npm's own error
# is the last output (e.g. when the registry does not serve the package: the runner is unavailable).
set -uo pipefail
cd "$(dirname "$0")"

TOOLNEXUS_VERSION="0.16.0"
JSONPATCH_VERSION="3.1.1"
prefix=".build/published"

installed_version() {
  node -e 'try { process.stdout.write(require(require("path").resolve(process.argv[1], "package.json")).version) } catch { process.exit(1) }' "$1" 2>/dev/null
}
if [[ "$(installed_version "$prefix/node_modules/toolnexus")" == "$TOOLNEXUS_VERSION" \
   && "$(installed_version "$prefix/node_modules/fast-json-patch")" == "$JSONPATCH_VERSION" ]]; then
  echo "toolnexus ${TOOLNEXUS_VERSION} already installed in runners/js/${prefix}"
  exit 0
fi

mkdir -p "$prefix" || exit 1
npm_install() {
  npm install --prefix "$prefix" --no-audit --no-fund --save-exact "toolnexus@${TOOLNEXUS_VERSION}" "fast-json-patch@${JSONPATCH_VERSION}" || return
  echo "installed toolnexus $(installed_version "$prefix/node_modules/toolnexus") in runners/js/${prefix}"
}
source ../retry.sh
# A 404 is the registry's definite answer (it does not serve that version), not a hiccup.
RETRY_GIVE_UP="code E404" with_retries "js runner install" npm_install
