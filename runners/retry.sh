# Sourced by the runners' install and build scripts: the one bounded retry loop for registry hiccups.
#
#   with_retries LABEL COMMAND [ARGS...]
#
# Runs COMMAND (a program or a shell function) up to $TNC_INSTALL_ATTEMPTS times (default 3), 2 s then
# 4 s apart, with RETRY_ATTEMPT=1, 2, ... in its environment (e.g. Maven's -U on a retry). Its output
# is kept: after a success it goes to stderr; after the last failure it is printed to stdout, so the
# installer's own words are the last output, and COMMAND's status is returned. A failure whose output
# matches the extended regex $RETRY_GIVE_UP (a definite answer such as a 404 or a compile error, not a
# hiccup) is not retried.
with_retries() {
  local label="$1" attempts="${TNC_INSTALL_ATTEMPTS:-3}" attempt output status
  shift
  for ((attempt = 1; ; attempt++)); do
    output=$(RETRY_ATTEMPT=$attempt "$@" 2>&1)
    status=$?
    if [[ "$status" -eq 0 ]]; then
      [[ -n "$output" ]] && printf '%s\n' "$output" >&2
      return 0
    fi
    if [[ "$attempt" -ge "$attempts" ]] || { [[ -n "${RETRY_GIVE_UP:-}" ]] && grep -Eq "$RETRY_GIVE_UP" <<<"$output"; }; then
      printf '%s\n' "$output"
      return "$status"
    fi
    echo "$label: attempt $attempt of $attempts failed; retrying" >&2
    sleep $((attempt * 2))
  done
}
