#!/usr/bin/env bash
# npm run format: prettier (.prettierrc.json) over every .ts/.mjs/.js file git does not ignore.
# Prettier is not always idempotent (a member chain it breaks on one pass it may join on the next),
# so it writes up to three times, until its own check passes; a file still unsettled after that is
# named by the check, exit 1. `--check` only checks (npm run format:check).
set -euo pipefail
cd "$(dirname "$0")/.."
files='**/*.{ts,mjs,js}'
if [[ "${1:-}" == "--check" ]]; then exec npx prettier --check "$files"; fi
for pass in 1 2 3; do
  npx prettier --write --log-level warn "$files"
  if npx prettier --check --log-level warn "$files" >/dev/null 2>&1; then
    echo "format: every file formatted (pass $pass)"
    exit 0
  fi
done
npx prettier --check "$files"
