#!/usr/bin/env bash
# Installs what the tests need beyond npm packages, when missing: Debian's Chromium (the HTML matrix
# is checked in a real headless browser). Bounded retries for registry hiccups; idempotent.
# Where it cannot install (not root, no apt-get, offline) it says why and exits 0: npm test goes on
# and test/conformance/report/html-matrix.test.ts skips, giving the reason. A browser that is there but fails
# the test still fails it.
set -euo pipefail

chromium="${CHROMIUM_PATH:-/usr/bin/chromium}"
if [ -x "$chromium" ]; then
  exit 0
fi
skipping() {
  echo "ensure-test-tools: $1: the HTML matrix browser test will be skipped (install Debian's chromium, or set CHROMIUM_PATH to a Chromium)" >&2
  exit 0
}
if [ "${TNC_SKIP_BROWSER_INSTALL:-}" = "1" ]; then
  skipping "TNC_SKIP_BROWSER_INSTALL=1: not installing chromium"
fi
if [ "$(id -u)" != "0" ]; then
  skipping "no Chromium at $chromium, and cannot install Debian's chromium here (not root)"
fi
if ! command -v apt-get >/dev/null; then
  skipping "no Chromium at $chromium, and cannot install Debian's chromium here (no apt-get)"
fi
echo "ensure-test-tools: no Chromium at $chromium: installing Debian's chromium with apt-get (about 350 MB download, a few minutes) for the HTML matrix browser test; set CHROMIUM_PATH to use another Chromium, or TNC_SKIP_BROWSER_INSTALL=1 to skip that test" >&2
for attempt in 1 2 3; do
  echo "ensure-test-tools: installing Debian's chromium (attempt $attempt)" >&2
  if timeout 600 apt-get update -qq && DEBIAN_FRONTEND=noninteractive timeout 900 apt-get install -y -qq chromium >/dev/null; then
    exit 0
  fi
  [ "$attempt" = 3 ] || sleep $((attempt * 5))
done
skipping "could not install chromium after 3 attempts (offline, or the package archive unreachable?)"
