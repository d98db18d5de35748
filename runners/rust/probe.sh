#!/usr/bin/env bash
# runner.json `probe`: does cargo's registry serve the crate Cargo.toml pins? cargo resolves a
# scratch package that depends on it alone (generate-lockfile reads the index, downloads no crate
# and builds nothing); the scratch folder is removed afterwards. One network retry, so an index that
# cannot be reached answers in about a second.
set -uo pipefail
cd "$(dirname "$0")"
source ../probe.sh
requirement=$(sed -n 's/^toolnexus *= *"\(=[^"]*\)".*/\1/p' Cargo.toml)
[[ -n "$requirement" ]] || { echo "runners/rust/Cargo.toml has no toolnexus = \"=VERSION\" line"; exit 1; }
probe_scratch
mkdir "$scratch/src" && : >"$scratch/src/lib.rs"
printf '[package]\nname = "toolnexus-probe"\nversion = "0.0.0"\nedition = "2021"\n\n[dependencies]\ntoolnexus = "%s"\n' "$requirement" >"$scratch/Cargo.toml"
cd "$scratch" || exit 1
CARGO_NET_RETRY="${CARGO_NET_RETRY:-1}" probe_registry '\[6\] Could( not|n.t) resolve|\[7\] (Could not|Couldn.t|Failed to) connect|Connection refused' \
  cargo generate-lockfile
