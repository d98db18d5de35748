#!/usr/bin/env bash
# Builds the go runner against the published port, pinned in go.mod
# (github.com/muthuishere/toolnexus/golang v0.16.0). Fast when already built: go's build cache.
# A registry hiccup is retried (3 attempts); on failure go's own error is the last output.
set -uo pipefail
cd "$(dirname "$0")"
export GOFLAGS=-mod=mod
attempts=3
for attempt in $(seq 1 "$attempts"); do
  if output=$(go build -o bin/runner . 2>&1); then
    [[ -n "$output" ]] && printf '%s\n' "$output" >&2
    exit 0
  fi
  if [[ "$attempt" -lt "$attempts" ]]; then
    echo "go runner install: attempt $attempt of $attempts failed; retrying" >&2
    sleep $((attempt * 2))
  fi
done
printf '%s\n' "$output"
exit 1
