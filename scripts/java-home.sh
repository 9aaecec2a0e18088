# Sourced by the repository's scripts: exports JAVA_HOME pointing at a JDK >= 25.
# Order: $JAVA_HOME if it is >= 25, else the newest JDK >= 25 found in the usual install folders
# or on the PATH. Prints a clear error and returns 1 when none is found.

railgun_java_major() { # $1 = path to a java binary; prints its feature version
  "$1" -XshowSettings:properties -version 2>&1 | sed -n 's/^ *java\.specification\.version = //p' | head -n1
}

railgun_find_java_home() {
  local min=25 best="" best_v=0 cand v
  if [ -n "${JAVA_HOME:-}" ] && [ -x "$JAVA_HOME/bin/java" ]; then
    v=$(railgun_java_major "$JAVA_HOME/bin/java")
    if [ "${v:-0}" -ge "$min" ] 2>/dev/null; then echo "$JAVA_HOME"; return 0; fi
  fi
  for cand in /usr/lib/jvm/* /usr/java/* /opt/java/* /opt/jdk* "$HOME"/.sdkman/candidates/java/* \
              "$HOME"/.jdks/* /Library/Java/JavaVirtualMachines/*/Contents/Home \
              "$(dirname "$(dirname "$(readlink -f "$(command -v java 2>/dev/null)" 2>/dev/null)" 2>/dev/null)" 2>/dev/null)"; do
    [ -x "$cand/bin/java" ] && [ -x "$cand/bin/javac" ] || continue
    v=$(railgun_java_major "$cand/bin/java")
    if [ "${v:-0}" -ge "$min" ] 2>/dev/null && [ "$v" -gt "$best_v" ]; then best="$cand"; best_v="$v"; fi
  done
  [ -n "$best" ] || return 1
  echo "$best"
}

if jh=$(railgun_find_java_home); then
  export JAVA_HOME="$jh"
  export PATH="$JAVA_HOME/bin:$PATH"
else
  echo "railgun: no JDK 25 or newer found. Install one (e.g. Temurin 25) and set JAVA_HOME to it." >&2
  return 1 2>/dev/null || exit 1
fi
