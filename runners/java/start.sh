#!/usr/bin/env bash
# Starts the runner jar ($1) on a 21+ JDK (jdk.sh). exec: the JVM keeps this process's pid and group.
set -euo pipefail
source "$(dirname "$0")/jdk.sh"
java_home=$(pick_java_home) || { echo "no Java 21+ JDK found (set TNC_JAVA_HOME; the machine default may be 17)" >&2; exit 1; }
exec "$java_home/bin/java" -jar "$1"
