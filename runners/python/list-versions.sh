#!/usr/bin/env bash
# Prints the published toolnexus releases on the default package index, one per line, oldest first
# (runner.json versions.list, for `history --versions A..B`). Bounded retries; on failure pip's own
# error is the last output.
set -uo pipefail
cd "$(dirname "$0")"

PYTHON="${PYTHON:-python3}"
command -v "$PYTHON" >/dev/null 2>&1 || { echo "python3 not found on PATH" >&2; exit 1; }

OUT="$(mktemp)"
trap 'rm -f "$OUT"' EXIT
index_versions() {
  "$PYTHON" -m pip index versions toolnexus --disable-pip-version-check --no-input >"$OUT" 2>&1 || { cat "$OUT"; return 1; }
}
source ../retry.sh
with_retries "python runner list-versions" index_versions || exit
# "Available versions: 0.21.0, 0.20.0, ..." (newest first) -> one per line, oldest first.
line="$(grep -m1 '^Available versions:' "$OUT")" || { cat "$OUT"; echo "no 'Available versions' line in pip's answer" >&2; exit 1; }
sed -e 's/^Available versions: *//' -e 's/, */\n/g' <<<"$line" | grep -v '^$' | tac
