#!/usr/bin/env bash
# Versioned published install (`--runner rust@VERSION`): the runner built against exactly one
# release of the crate.
#
#   TNC_PACKAGE_VERSION  the toolnexus release, e.g. 0.22.0
#   TNC_BUILD_DIR        a folder of our own for that version (.build/published-<version>/)
#
# Generates $TNC_BUILD_DIR/Cargo.toml with `toolnexus = "=VERSION"` (cargo-build.sh), builds it and
# leaves the binary at $TNC_BUILD_DIR/runner. Idempotent, and fast (no cargo build) when built.
set -uo pipefail
cd "$(dirname "$0")"
source ./cargo-build.sh

fail() { echo "$*" >&2; exit 1; }
VERSION="${TNC_PACKAGE_VERSION:-}"
[[ -n "$VERSION" ]] || fail "TNC_PACKAGE_VERSION is not set (the toolnexus release to build, e.g. 0.22.0)"
[[ "$VERSION" =~ ^[0-9]+\.[0-9]+\.[0-9]+([-+][0-9A-Za-z.-]+)?$ ]] || fail "TNC_PACKAGE_VERSION=$VERSION is not a version"
[[ -n "${TNC_BUILD_DIR:-}" ]] || fail "TNC_BUILD_DIR is not set (a build folder for this version)"

generate_manifest "$TNC_BUILD_DIR" "\"=$VERSION\"" || exit 1
build_runner "$TNC_BUILD_DIR" "$TNC_BUILD_DIR"
