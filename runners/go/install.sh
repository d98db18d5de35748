#!/usr/bin/env bash
# Builds the go runner against the published port, pinned in go.mod
# (github.com/muthuishere/toolnexus/golang v0.16.0). Fast when already built: go's build cache.
# A registry hiccup is retried (3 attempts); on failure go's own error is the last output.
set -uo pipefail
cd "$(dirname "$0")"
export GOFLAGS=-mod=mod
source ../retry.sh
# A module version the proxy does not serve is a definite answer, not a hiccup: not retried.
RETRY_GIVE_UP="module version is not available|: 404 Not Found|: 410 Gone" with_retries "go runner install" go build -o bin/runner .
