# Sourced by install.sh, install-version.sh and install-source.sh: builds the runner binary with cargo
# from a manifest and copies it into a build folder, or does nothing when that build is current.
#
#   build_runner MANIFEST_DIR BUILD_DIR [CARGO_ARGS...]
#
# MANIFEST_DIR holds the Cargo.toml to build (this folder's own, or one generated into BUILD_DIR);
# the binary becomes BUILD_DIR/runner. cargo's target folder is a cache outside the clone, shared by
# every version and source build (dependencies compile once):
# ${TNC_RUST_TARGET_DIR:-${XDG_CACHE_HOME:-$HOME/.cache}/toolnexus-conformance/rust-target}.
#
# Fast path: BUILD_DIR/built (written last) holds a checksum of the manifest, its Cargo.lock, the
# runner's sources and cargo's version; when it matches and the binary is there, no cargo build runs.
# A registry hiccup is retried (../retry.sh); on failure cargo's own error is the last output.

RUST_RUNNER_DIR="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd -P)"

rust_target_dir() {
  echo "${TNC_RUST_TARGET_DIR:-${XDG_CACHE_HOME:-$HOME/.cache}/toolnexus-conformance/rust-target}"
}

# What a build is made of: a change to any of these makes the next install build again.
build_inputs_sum() {
  local manifest_dir="$1"
  {
    cargo --version
    cat "$manifest_dir/Cargo.toml" "$manifest_dir/Cargo.lock" 2>/dev/null
    cat "$RUST_RUNNER_DIR/build.rs" "$RUST_RUNNER_DIR"/src/*.rs
  } | sha256sum | cut -d' ' -f1
}

build_runner() {
  local manifest_dir="$1" build_dir="$2"
  shift 2
  command -v cargo >/dev/null 2>&1 || { echo "cargo not found on PATH (the rust runner builds with cargo)" >&2; return 1; }
  mkdir -p "$build_dir" || return 1
  local stamp="$build_dir/built" wanted
  wanted="$(build_inputs_sum "$manifest_dir")"
  if [[ -x "$build_dir/runner" && -f "$stamp" && "$(cat "$stamp")" == "$wanted" ]]; then
    echo "rust runner already built in $build_dir"
    return 0
  fi
  rm -f "$stamp"
  local target
  target="$(rust_target_dir)"
  mkdir -p "$target" || return 1
  cargo_build() {
    # One build at a time in the shared target folder, and the binary copied out before the next
    # build overwrites it.
    flock "$target/.tnc-build.lock" bash -c '
      set -e
      CARGO_TARGET_DIR="$1" cargo build --quiet --manifest-path "$2/Cargo.toml" "${@:4}"
      cp "$1/debug/tnc-rust-runner" "$3/runner.new"
      mv "$3/runner.new" "$3/runner"' _ "$target" "$manifest_dir" "$build_dir" "$@"
  }
  source "$RUST_RUNNER_DIR/../retry.sh"
  # A version the registry does not have, or a compile error, is a definite answer, not a hiccup.
  RETRY_GIVE_UP='failed to select a version|error\[E[0-9]+\]|could not compile' \
    with_retries "rust runner build" cargo_build "$@" || return
  # The lock cargo settled on is part of what was built.
  build_inputs_sum "$manifest_dir" >"$stamp"
  echo "built the rust runner into $build_dir"
}

# Writes BUILD_DIR/Cargo.toml: this folder's manifest with the toolnexus dependency replaced by
# DEPENDENCY (e.g. `"=0.22.0"` or `{ path = "/abs/crate" }`) and the runner's own files named by
# absolute path. cargo writes the build's own Cargo.lock beside it at the first build.
generate_manifest() {
  local build_dir="$1" dependency="$2"
  mkdir -p "$build_dir" || return 1
  local generated
  generated="$(sed \
    -e "s|^toolnexus = .*|toolnexus = $dependency|" \
    -e "s|^path = \"src/main.rs\"|path = \"$RUST_RUNNER_DIR/src/main.rs\"|" \
    -e "s|^build = \"build.rs\"|build = \"$RUST_RUNNER_DIR/build.rs\"|" \
    "$RUST_RUNNER_DIR/Cargo.toml")" || return 1
  if ! grep -qxF "toolnexus = $dependency" <<<"$generated"; then
    echo "rust runner: no 'toolnexus = ' line in $RUST_RUNNER_DIR/Cargo.toml to replace" >&2
    return 1
  fi
  if [[ ! -f "$build_dir/Cargo.toml" ]] || [[ "$(cat "$build_dir/Cargo.toml")" != "$generated" ]]; then
    printf '%s\n' "$generated" >"$build_dir/Cargo.toml" || return 1
  fi
}
