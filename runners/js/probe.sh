#!/usr/bin/env bash
# runner.json `probe`: does npm's registry serve the pinned toolnexus release? `npm view` asks for its
# version and installs nothing; an empty answer (the package without that version) is a refusal too.
# One retry, so a registry that cannot be reached answers in about a second.
set -uo pipefail
cd "$(dirname "$0")"
source ../probe.sh
package="toolnexus@$(sed -n 's/^TOOLNEXUS_VERSION="\(.*\)"$/\1/p' install-published.sh)"
view() {
  local answer
  answer=$(npm view "$package" version --fetch-retries 1 2>&1) || { printf '%s\n' "$answer"; return 1; }
  [[ -n "$answer" ]] || { echo "npm view $package: the registry has the package but not that version"; return 1; }
  echo "$answer"
}
# npm's error code says what happened; its last line names its debug log.
PROBE_TELLING='npm error code' probe_registry 'ECONNREFUSED|ENOTFOUND|EAI_AGAIN|ENETUNREACH|EHOSTUNREACH' view
