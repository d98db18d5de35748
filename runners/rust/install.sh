#!/usr/bin/env bash
# Builds the rust runner against the published crate pinned in Cargo.toml (toolnexus =0.23.0, every
# direct dependency pinned exactly) into .build/pinned/runner. Fast when already built:
# a checksum stamp, no cargo build (cargo-build.sh).
set -uo pipefail
cd "$(dirname "$0")"
source ./cargo-build.sh
build_runner "$PWD" "$PWD/.build/pinned"
