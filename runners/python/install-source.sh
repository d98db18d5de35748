#!/usr/bin/env bash
# Source mode: builds the python runner's environment from a toolnexus source checkout.
#
#   TNC_PORT_SOURCE  the port's folder in the checkout (python/ of toolnexus), READ-ONLY
#   TNC_BUILD_DIR    a folder of our own for exactly this source content (may hold a previous build)
#
# Makes $TNC_BUILD_DIR/venv with the port installed from a copy of the source ($TNC_BUILD_DIR/src:
# the build backend may write into the tree it builds, and the checkout must stay untouched), plus the
# runner's one helper at the same pin as install.sh. Idempotent, and fast when already built there.
set -uo pipefail
cd "$(dirname "$0")"

JSONPATCH_VERSION="1.33"

fail() { echo "$*" >&2; exit 1; }

[ -n "${TNC_PORT_SOURCE:-}" ] || fail "TNC_PORT_SOURCE is not set (the python/ folder of a toolnexus checkout)"
[ -n "${TNC_BUILD_DIR:-}" ] || fail "TNC_BUILD_DIR is not set (a build folder for this source)"
[ -f "$TNC_PORT_SOURCE/pyproject.toml" ] || fail "no pyproject.toml in TNC_PORT_SOURCE=$TNC_PORT_SOURCE"
mkdir -p "$TNC_BUILD_DIR" || fail "cannot create TNC_BUILD_DIR=$TNC_BUILD_DIR"

PYTHON="${PYTHON:-python3}"
command -v "$PYTHON" >/dev/null 2>&1 || fail "python3 not found on PATH (the python runner needs Python >= 3.11)"
"$PYTHON" -c 'import sys; sys.exit(0 if sys.version_info >= (3, 11) else 1)' \
  || fail "$("$PYTHON" --version 2>&1) is too old: the python runner needs Python >= 3.11"

# The version the source declares (its own metadata, not a constant here).
SOURCE_VERSION="$("$PYTHON" - "$TNC_PORT_SOURCE/pyproject.toml" <<'PY'
import sys, tomllib
with open(sys.argv[1], "rb") as f:
    print(tomllib.load(f)["project"]["version"])
PY
)" || fail "cannot read project.version from $TNC_PORT_SOURCE/pyproject.toml"

VENV="$TNC_BUILD_DIR/venv"
STAMP="$TNC_BUILD_DIR/installed"

installed_version() {
  "$VENV/bin/python" - "$1" <<'PY' 2>/dev/null
import sys
from importlib.metadata import version, PackageNotFoundError
try:
    print(version(sys.argv[1]))
except PackageNotFoundError:
    sys.exit(1)
PY
}

# Fast path: a finished build of this very source (the stamp is written last, and TNC_BUILD_DIR is
# dedicated to this source content) with both packages at the expected versions. One interpreter
# start, no import of the port: an import failure shows in the handshake as `unavailable`.
if [ -f "$STAMP" ] && [ -x "$VENV/bin/python" ] \
  && "$VENV/bin/python" - "$SOURCE_VERSION" "$JSONPATCH_VERSION" <<'PY' >/dev/null 2>&1
import sys
from importlib.metadata import version
sys.exit(0 if (version("toolnexus"), version("jsonpatch")) == (sys.argv[1], sys.argv[2]) else 1)
PY
then
  echo "toolnexus ${SOURCE_VERSION} (source) already installed in $VENV"
  exit 0
fi
rm -f "$STAMP"

# A venv made by another (or a removed) interpreter is rebuilt.
if [ -d "$VENV" ] && ! "$VENV/bin/python" -c 'import sys; sys.exit(0 if sys.version_info >= (3, 11) else 1)' >/dev/null 2>&1; then
  rm -rf "$VENV"
fi
if [ ! -x "$VENV/bin/python" ]; then
  "$PYTHON" -m venv "$VENV" || fail "could not create a venv with $("$PYTHON" --version 2>&1) in $VENV"
fi

# A fresh, writable copy of the source to build from (never build in the checkout itself).
SRC="$TNC_BUILD_DIR/src"
rm -rf "$SRC"
mkdir -p "$SRC" && cp -R "$TNC_PORT_SOURCE/." "$SRC/" && chmod -R u+w "$SRC" \
  || fail "cannot copy $TNC_PORT_SOURCE to $SRC"

# Bounded retries for registry hiccups (the build backend and the port's dependencies come from the
# default package index); on the last failure pip's own error is the last output.
pip_install() {
  PIP_CACHE_DIR="$TNC_BUILD_DIR/pip-cache" "$VENV/bin/python" -m pip install \
    --disable-pip-version-check --no-input -q "$SRC" "jsonpatch==${JSONPATCH_VERSION}"
}
source ../retry.sh
with_retries "python runner install-source" pip_install || exit
got="$(installed_version toolnexus)"
if [ "$got" != "$SOURCE_VERSION" ]; then
  fail "installed toolnexus is ${got:-missing}, the source declares ${SOURCE_VERSION}"
fi
echo "$SOURCE_VERSION" > "$STAMP"
echo "installed toolnexus ${SOURCE_VERSION} from $TNC_PORT_SOURCE in $VENV"
