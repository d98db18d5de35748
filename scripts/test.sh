#!/usr/bin/env bash
# npm test: lint, the official MCP suite, vitest, a quick benchmark and CI's conformance job, in that
# order, stopping at the first that fails. First it decides once what this machine can obtain for
# each runner (`conformance obtainable`: each toolchain, each package client's answer) into
# out/obtainable.json, which every later step reads through TNC_OBTAINABLE: the tests that build a
# port skip, saying why, only where it is not obtainable here, and CI's job requires the ports that
# are. The decision is printed at the start and again at the end, whatever the outcome.
set -uo pipefail
cd "$(dirname "$0")/.."
mkdir -p out
decision="$PWD/out/obtainable.json"
npx tsx conformance/cli/main.ts obtainable --json "$decision" --heading "npm test starts: what this machine obtains" || exit
export TNC_OBTAINABLE="$decision"
say_again() {
  npx tsx conformance/cli/main.ts obtainable --from "$decision" --heading "npm test ended: what this machine obtained" || true
}
trap say_again EXIT
# The quick bench's vitest rows read the report vitest just wrote (vitest.config.ts): no second test run.
npm run lint && npm run conformance:mcp && npx vitest run &&
  npm run bench -- --quick --vitest-report out/vitest-report.json && npm run conformance:all
