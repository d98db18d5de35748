#!/usr/bin/env bash
# Installs what the tests need beyond npm packages, when missing: Debian's Chromium (the HTML matrix
# is checked in a real headless browser). Bounded retries for registry hiccups; idempotent.
set -euo pipefail

if [ -x "${CHROMIUM_PATH:-/usr/bin/chromium}" ]; then
  exit 0
fi
if [ "$(id -u)" != "0" ] || ! command -v apt-get >/dev/null; then
  echo "ensure-test-tools: Chromium is missing and cannot be installed here (needs root and apt-get); install Debian's chromium or set CHROMIUM_PATH" >&2
  exit 1
fi
for attempt in 1 2 3; do
  echo "ensure-test-tools: installing Debian's chromium (attempt $attempt)" >&2
  if timeout 600 apt-get update -qq && DEBIAN_FRONTEND=noninteractive timeout 900 apt-get install -y -qq chromium >/dev/null; then
    exit 0
  fi
  sleep $((attempt * 5))
done
echo "ensure-test-tools: could not install chromium after 3 attempts" >&2
exit 1
