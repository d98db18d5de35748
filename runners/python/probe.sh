#!/usr/bin/env bash
# runner.json `probe`: does pip's package index serve the pinned toolnexus release? pip downloads it
# (no dependencies, nothing installed) into a folder removed afterwards. One retry only, so that an
# index it cannot reach shows in pip's own warning line (with --retries 0 pip says only "from
# versions: none", the same words as an index that answers without the package).
set -uo pipefail
cd "$(dirname "$0")"
source ../probe.sh
version=$(python3 -c 'import json; print(json.load(open("runner.json"))["versions"]["pinned"])') || exit 1
probe_scratch
probe_registry 'Failed to establish a new connection|Name or service not known|Temporary failure in name resolution|Connection refused|Network is unreachable|No route to host' \
  python3 -m pip download --disable-pip-version-check --no-input --no-deps --retries 1 --timeout 20 \
  --dest "$scratch" "toolnexus==$version"
