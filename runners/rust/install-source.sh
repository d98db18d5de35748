#!/usr/bin/env bash
# Source mode: builds the rust runner against a toolnexus crate checkout through a path dependency.
#
#   TNC_PORT_SOURCE  the crate's folder (its Cargo.toml declares package toolnexus); READ-ONLY:
#                    cargo writes its output to the shared target folder, never beside the source
#   TNC_BUILD_DIR    a folder of our own for exactly this source content
#
# Generates $TNC_BUILD_DIR/Cargo.toml with `toolnexus = { path = "<source>" }` (cargo-build.sh),
# builds it and leaves the binary at $TNC_BUILD_DIR/runner. The handshake reports the version the
# crate's own Cargo.toml declares (read from the build's Cargo.lock). Fast when already built.
set -uo pipefail
cd "$(dirname "$0")"
source ./cargo-build.sh

fail() { echo "$*" >&2; exit 1; }
[[ -n "${TNC_PORT_SOURCE:-}" ]] || fail "TNC_PORT_SOURCE is not set (the toolnexus crate's folder)"
[[ -n "${TNC_BUILD_DIR:-}" ]] || fail "TNC_BUILD_DIR is not set (a build folder for this source)"
[[ -f "$TNC_PORT_SOURCE/Cargo.toml" ]] || fail "rust runner install-source: no Cargo.toml in $TNC_PORT_SOURCE"
grep -Eq '^name = "toolnexus"' "$TNC_PORT_SOURCE/Cargo.toml" \
  || fail "rust runner install-source: $TNC_PORT_SOURCE/Cargo.toml does not declare package toolnexus"
source_dir="$(cd "$TNC_PORT_SOURCE" && pwd -P)"
[[ "$source_dir" != *'"'* && "$source_dir" != *'|'* ]] || fail "rust runner install-source: cannot name $source_dir in a manifest"

generate_manifest "$TNC_BUILD_DIR" "{ path = \"$source_dir\" }" || exit 1
build_runner "$TNC_BUILD_DIR" "$TNC_BUILD_DIR"
