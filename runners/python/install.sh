#!/usr/bin/env bash
# Installs the python runner's environment: a .venv in this folder with the published toolnexus port
# at its pinned version (and the one helper the runner needs). Idempotent, and fast when already done.
set -uo pipefail
cd "$(dirname "$0")"

TOOLNEXUS_VERSION="0.21.0"
JSONPATCH_VERSION="1.33"
REQUIREMENTS=("toolnexus==${TOOLNEXUS_VERSION}" "jsonpatch==${JSONPATCH_VERSION}")

PYTHON="${PYTHON:-python3}"
if ! command -v "$PYTHON" >/dev/null 2>&1; then
  echo "python3 not found on PATH (the python runner needs Python >= 3.11)" >&2
  exit 1
fi
if ! "$PYTHON" -c 'import sys; sys.exit(0 if sys.version_info >= (3, 11) else 1)'; then
  echo "$("$PYTHON" --version 2>&1) is too old: toolnexus ${TOOLNEXUS_VERSION} needs Python >= 3.11" >&2
  exit 1
fi

# Fast path: everything already installed at the pinned versions.
installed_version() {
  .venv/bin/python - "$1" <<'PY' 2>/dev/null
import sys
from importlib.metadata import version, PackageNotFoundError
try:
    print(version(sys.argv[1]))
except PackageNotFoundError:
    sys.exit(1)
PY
}
if [ -x .venv/bin/python ] \
  && [ "$(installed_version toolnexus)" = "$TOOLNEXUS_VERSION" ] \
  && [ "$(installed_version jsonpatch)" = "$JSONPATCH_VERSION" ]; then
  echo "toolnexus ${TOOLNEXUS_VERSION} already installed in runners/python/.venv"
  exit 0
fi

# A venv made by another (or a removed) interpreter is rebuilt.
if [ -d .venv ] && ! .venv/bin/python -c 'import sys; sys.exit(0 if sys.version_info >= (3, 11) else 1)' >/dev/null 2>&1; then
  rm -rf .venv
fi
if [ ! -x .venv/bin/python ]; then
  "$PYTHON" -m venv .venv || { echo "could not create a venv with $("$PYTHON" --version 2>&1)" >&2; exit 1; }
fi

pip_install() {
  .venv/bin/python -m pip install --disable-pip-version-check --no-input -q "${REQUIREMENTS[@]}" || return
  echo "installed toolnexus $(installed_version toolnexus) in runners/python/.venv"
}
source ../retry.sh
with_retries "python runner install" pip_install
