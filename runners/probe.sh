# Sourced by the runners' probe scripts (runner.json `probe`): asks a package client one question and
# turns its answer into the probe's exit status (runners/PROTOCOL.md, "Is the port obtainable here?").
#
#   probe_registry UNREACHABLE_ERE COMMAND [ARGS...]
#
# Runs COMMAND (which asks the registry for the pinned package without installing it) and prints its
# output, then its telling line once more, last: "served" when it succeeds (exit 0); when its output
# matches the extended regex UNREACHABLE_ERE, the client's own words for "could not reach the registry
# at all" (a name that did not resolve, a connection refused), the last line that matches (exit 3);
# otherwise its last line that matches $PROBE_TELLING (an extended regex; default: its last line) (exit
# 1: the registry answered and refused, or the client failed another way). Bounding a client that
# hangs is the caller's job (runner.json probeTimeoutMs).
probe_registry() {
  local unreachable="$1" output status line
  shift
  output=$("$@" 2>&1)
  status=$?
  [[ -n "$output" ]] && printf '%s\n' "$output"
  if [[ "$status" -eq 0 ]]; then
    echo "served"
    return 0
  fi
  line=$(grep -E "$unreachable" <<<"$output" | tail -n1)
  if [[ -n "$line" ]]; then
    echo "${line#"${line%%[![:space:]]*}"}"
    return 3
  fi
  line=$(grep -E "${PROBE_TELLING:-[^[:space:]]}" <<<"$output" | tail -n1)
  [[ -n "$line" ]] || line=$(grep -v '^[[:space:]]*$' <<<"$output" | tail -n1)
  echo "${line#"${line%%[![:space:]]*}"}"
  return 1
}

# A scratch folder for what the client writes while it answers, in $scratch, removed when the probe exits.
probe_scratch() {
  scratch=$(mktemp -d) || exit 1
  trap 'rm -rf "$scratch"' EXIT
}
