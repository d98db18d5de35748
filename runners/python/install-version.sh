#!/usr/bin/env bash
# Versioned published install (`--runner python@VERSION`): a venv for exactly one PyPI release.
#
#   TNC_PACKAGE_VERSION  the toolnexus release to install, e.g. 0.16.0
#   TNC_BUILD_DIR        a folder of our own for that version (.build/published-<version>/, may hold a
#                        previous install)
#
# Makes $TNC_BUILD_DIR/venv with toolnexus==$TNC_PACKAGE_VERSION and the runner's one helper at the
# same pin as install.sh. Where a release's own dependency bounds no longer resolve to what it was
# built against, constraints/<version>.txt (pip -c) holds the release back, with its reason in a
# comment (README.md "Versions"). Idempotent, and fast (one interpreter start, no pip) when already
# installed there.
set -uo pipefail
cd "$(dirname "$0")"

JSONPATCH_VERSION="1.33"

fail() { echo "$*" >&2; exit 1; }

VERSION="${TNC_PACKAGE_VERSION:-}"
[ -n "$VERSION" ] || fail "TNC_PACKAGE_VERSION is not set (the toolnexus release to install, e.g. 0.16.0)"
[[ "$VERSION" =~ ^[0-9]+(\.[0-9]+)*([A-Za-z0-9.+!-]*)$ ]] || fail "TNC_PACKAGE_VERSION=$VERSION is not a version"
[ -n "${TNC_BUILD_DIR:-}" ] || fail "TNC_BUILD_DIR is not set (a build folder for this version)"
mkdir -p "$TNC_BUILD_DIR" || fail "cannot create TNC_BUILD_DIR=$TNC_BUILD_DIR"

PYTHON="${PYTHON:-python3}"
command -v "$PYTHON" >/dev/null 2>&1 || fail "python3 not found on PATH (the python runner needs Python >= 3.11)"

VENV="$TNC_BUILD_DIR/venv"
STAMP="$TNC_BUILD_DIR/installed"

# This version's constraints, if any; their content is part of what was installed, so an edited file
# makes the next install redo the venv.
CONSTRAINTS="$PWD/constraints/$VERSION.txt"
pip_constraints=()
constraints_sum="none"
if [ -f "$CONSTRAINTS" ]; then
  pip_constraints=(-c "$CONSTRAINTS")
  constraints_sum="$(cksum < "$CONSTRAINTS" | tr -s ' ' '-')"
fi
WANT="toolnexus==$VERSION jsonpatch==$JSONPATCH_VERSION constraints=$constraints_sum"

# Fast path: a finished install (the stamp is written last) of this version with these constraints,
# and the venv's packages still at those versions. No import of the port: an import failure shows in
# the handshake as `unavailable`.
if [ -f "$STAMP" ] && [ "$(cat "$STAMP" 2>/dev/null)" = "$WANT" ] && [ -x "$VENV/bin/python" ] \
  && "$VENV/bin/python" - "$VERSION" "$JSONPATCH_VERSION" <<'PY' >/dev/null 2>&1
import sys
from importlib.metadata import version
sys.exit(0 if (version("toolnexus"), version("jsonpatch")) == (sys.argv[1], sys.argv[2]) else 1)
PY
then
  echo "toolnexus ${VERSION} already installed in $VENV"
  exit 0
fi

"$PYTHON" -c 'import sys; sys.exit(0 if sys.version_info >= (3, 11) else 1)' \
  || fail "$("$PYTHON" --version 2>&1) is too old: the python runner needs Python >= 3.11"
rm -f "$STAMP"

# A venv made by another (or a removed) interpreter is rebuilt; so is one from other constraints
# (pip would not downgrade what an earlier install resolved).
if [ -d "$VENV" ] && ! "$VENV/bin/python" -c 'import sys; sys.exit(0 if sys.version_info >= (3, 11) else 1)' >/dev/null 2>&1; then
  rm -rf "$VENV"
fi
if [ -d "$VENV" ] && [ "$(cat "$TNC_BUILD_DIR/constraints" 2>/dev/null)" != "$constraints_sum" ]; then
  rm -rf "$VENV"
fi
if [ ! -x "$VENV/bin/python" ]; then
  "$PYTHON" -m venv "$VENV" || fail "could not create a venv with $("$PYTHON" --version 2>&1) in $VENV"
fi
echo "$constraints_sum" > "$TNC_BUILD_DIR/constraints"

# Bounded retries for registry hiccups; a release the index does not have ("from versions: 0.1.1,
# ...", a definite answer) is not retried. On the last failure pip's own error is the last output.
pip_install() {
  "$VENV/bin/python" -m pip install --disable-pip-version-check --no-input -q \
    "${pip_constraints[@]}" "toolnexus==$VERSION" "jsonpatch==$JSONPATCH_VERSION"
}
source ../retry.sh
RETRY_GIVE_UP='from versions: [0-9]' \
  with_retries "python runner install-version" pip_install || exit

got="$("$VENV/bin/python" -c 'from importlib.metadata import version; print(version("toolnexus"))' 2>/dev/null)"
[ "$got" = "$VERSION" ] || fail "installed toolnexus is ${got:-missing}, expected ${VERSION}"
echo "$WANT" > "$STAMP"
echo "installed toolnexus ${VERSION} in $VENV${pip_constraints[*]:+ (constraints/$VERSION.txt)}"
