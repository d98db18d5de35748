#!/usr/bin/env bash
# CI's conformance job (npm run conformance:all): every scenario against the reference and every
# runner, published and, from the port source checkout, built from source; gated on each subject's
# baseline. With the checkout present, each port that builds from it here must run (--require):
# a build that breaks fails CI instead of turning into a quiet "unavailable".
set -euo pipefail
cd "$(dirname "$0")/.."
# The checkout: $TOOLNEXUS_SOURCE, else package.json's config.portsCheckout (npm passes it in).
source_dir="${TOOLNEXUS_SOURCE:-${npm_package_config_portsCheckout:-../shared/ports/toolnexus-0.16.0}}"
required=(--require ts --require python)
if [[ -d "$source_dir" ]]; then
  # csharp@source needs .NET: required only where dotnet is on PATH.
  for subject in python@source go@source java@source js@source; do required+=(--require "$subject"); done
  if command -v dotnet >/dev/null; then required+=(--require csharp@source); fi
else
  echo "ci-conformance: no port source checkout at $source_dir: source subjects will be reported unavailable" >&2
fi
exec npx tsx conformance/cli/main.ts run --runner all --source "$source_dir" "${required[@]}" \
  --json out/report.json --junit out/junit.xml --matrix out/matrix.md --html out/matrix.html "$@"
