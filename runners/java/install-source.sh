#!/usr/bin/env bash
# Source mode: builds $TNC_BUILD_DIR/runner.jar from the port's source checkout ($TNC_PORT_SOURCE,
# the java/ folder of toolnexus; read-only, nothing is written into it) and this runner's sources,
# with Maven (source-pom.xml) on a Java 21+ JDK (jdk.sh). Every output of the build lands under
# $TNC_BUILD_DIR. The port's group and version are read from its build.gradle and recorded in the jar
# manifest (the handshake reports them from there). A registry hiccup is retried (3 attempts); on
# failure Maven's own error is the last output.
set -uo pipefail
cd "$(dirname "$0")"
source ./jdk.sh
JAVA_HOME=$(pick_java_home) || { echo "no Java 21+ JDK found: set TNC_JAVA_HOME (the port's classes need Java 21+; the machine default may be 17)"; exit 1; }
export JAVA_HOME PATH="$JAVA_HOME/bin:$PATH"

fail() { printf '%s\n' "$*"; exit 1; }

[[ -n "${TNC_PORT_SOURCE:-}" ]] || fail "TNC_PORT_SOURCE is not set (the java/ folder of a toolnexus checkout)"
[[ -n "${TNC_BUILD_DIR:-}" ]] || fail "TNC_BUILD_DIR is not set (the folder the build writes to)"
command -v mvn >/dev/null || fail "mvn is not on PATH (the port builds with Gradle upstream; this runner builds it with Maven)"
[[ -d "$TNC_PORT_SOURCE/src/main/java" ]] || fail "no src/main/java in TNC_PORT_SOURCE=$TNC_PORT_SOURCE"
gradle="$TNC_PORT_SOURCE/build.gradle"
[[ -f "$gradle" ]] || fail "no build.gradle in TNC_PORT_SOURCE=$TNC_PORT_SOURCE"

# build.gradle's own `group = '...'` and `version = '...'` (top-level assignments).
gradle_value() {
  sed -n "s/^$1[[:space:]]*=[[:space:]]*['\"]\([^'\"]*\)['\"].*/\1/p" "$gradle" | head -n 1
}
group=$(gradle_value group)
version=$(gradle_value version)
[[ -n "$version" ]] || fail "cannot read \`version = '...'\` from $gradle"
[[ -n "$group" ]] || fail "cannot read \`group = '...'\` from $gradle"

mkdir -p "$TNC_BUILD_DIR" || exit 1
jar="$TNC_BUILD_DIR/runner.jar"
# Fast path: already built there from the current runner sources (the harness's build folder is
# keyed by the port source's content; the port's files are checked too for hand-made folders).
if [[ -f "$jar" && -z "$(find source-pom.xml install-source.sh src "$gradle" "$TNC_PORT_SOURCE/src/main/java" -newer "$jar" -print -quit)" ]]; then
  exit 0
fi
rm -f "$jar"

# Retries force re-resolution (-U): Maven caches a failed lookup otherwise. A compile error is not a
# registry hiccup: no retry.
mvn_package() {
  local update=()
  [[ "$RETRY_ATTEMPT" -gt 1 ]] && update=(-U)
  mvn -B -q -Dstyle.color=never "${update[@]}" -f source-pom.xml "-Dport.group=$group" "-Dport.version=$version" package || return
  [[ -f "$jar" ]] || { echo "maven finished but wrote no $jar"; return 1; }
}
source ../retry.sh
RETRY_GIVE_UP="COMPILATION ERROR" with_retries "java runner install-source" mvn_package
