# Sourced by install.sh, install-source.sh and start.sh: picks the JDK the port needs (21+).
# TNC_JAVA_HOME wins; else the Temurin 25 JDK where these machines keep it; else JAVA_HOME when it is
# a 21+ JDK (as actions/setup-java leaves it). The machine default (17) cannot load the port's classes.
pick_java_home() {
  local candidate version
  for candidate in "${TNC_JAVA_HOME:-}" /usr/lib/jvm/temurin-25-jdk-amd64 "${JAVA_HOME:-}"; do
    [[ -n "$candidate" && -x "$candidate/bin/java" ]] || continue
    version=$("$candidate/bin/java" -XshowSettings:properties -version 2>&1 | sed -n 's/^ *java.specification.version = //p')
    if [[ "${version%%.*}" -ge 21 ]] 2>/dev/null; then
      echo "$candidate"
      return 0
    fi
  done
  return 1
}
