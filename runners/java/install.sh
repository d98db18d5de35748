#!/usr/bin/env bash
# Builds target/runner.jar (the runner shaded with the published port, pinned in pom.xml:
# io.github.muthuishere:toolnexus:0.16.0) with a Java 21+ JDK (jdk.sh). A registry hiccup is retried
# (3 attempts); on failure Maven's own error is the last output.
set -uo pipefail
cd "$(dirname "$0")"
source ./jdk.sh
JAVA_HOME=$(pick_java_home) || { echo "no Java 21+ JDK found: set TNC_JAVA_HOME (the port's classes need Java 21+; the machine default may be 17)"; exit 1; }
export JAVA_HOME PATH="$JAVA_HOME/bin:$PATH"
# Fast path: already built from the current sources.
if [[ -f target/runner.jar && -z "$(find pom.xml src -newer target/runner.jar -print -quit)" ]]; then
  exit 0
fi
# Retries force re-resolution (-U): Maven caches a failed lookup otherwise.
mvn_package() { local update=(); [[ "$RETRY_ATTEMPT" -gt 1 ]] && update=(-U); mvn -B -q "${update[@]}" package; }
source ../retry.sh
# A missing artifact is a definite answer (the registry does not serve it), not a hiccup: not retried.
RETRY_GIVE_UP="Could not find artifact" with_retries "java runner install" mvn_package
