# Sourced by the repository's scripts: exports JAVA_HOME pointing at a JDK >= 25.
# Order: $JAVA_HOME if it is >= 25, else the newest JDK >= 25 among: the JDKs installed beside any
# java the machine knows (on the PATH, or registered with update-alternatives), macOS's java_home,
# and the per-user install folders of SDKMAN! and IntelliJ. Prints a clear error and returns 1
# when none is found. Found installs must be JDKs (with javac: the scripts build), unless the caller
# sets railgun_java_runtime_only=1 first (the release's bin/railgun only runs Java, so a JRE will do).

railgun_java_major() { # $1 = path to a java binary; prints its feature version
  "$1" -XshowSettings:properties -version 2>&1 | sed -n 's/^ *java\.specification\.version = //p' | head -n1
}

railgun_jdk_candidates() { # prints candidate JDK home folders, one per line
  local java_bin home
  for java_bin in $(type -ap java 2>/dev/null) \
                  $(update-alternatives --list java 2>/dev/null) \
                  $(update-alternatives --list javac 2>/dev/null); do
    home=$(dirname "$(dirname "$(readlink -f "$java_bin")")")
    echo "$home"
    # the other JDKs installed beside this one
    for sibling in "$(dirname "$home")"/*; do echo "$sibling"; done
  done
  if [ -x /usr/libexec/java_home ]; then /usr/libexec/java_home -v 25+ 2>/dev/null; fi
  for sibling in "$HOME"/.sdkman/candidates/java/* "$HOME"/.jdks/*; do echo "$sibling"; done
}

railgun_find_java_home() {
  local min=25 best="" best_v=0 cand v
  if [ -n "${JAVA_HOME:-}" ] && [ -x "$JAVA_HOME/bin/java" ]; then
    v=$(railgun_java_major "$JAVA_HOME/bin/java")
    if [ "${v:-0}" -ge "$min" ] 2>/dev/null; then echo "$JAVA_HOME"; return 0; fi
  fi
  while IFS= read -r cand; do
    [ -x "$cand/bin/java" ] || continue
    [ "${railgun_java_runtime_only:-0}" = 1 ] || [ -x "$cand/bin/javac" ] || continue
    v=$(railgun_java_major "$cand/bin/java")
    if [ "${v:-0}" -ge "$min" ] 2>/dev/null && [ "$v" -gt "$best_v" ]; then best="$cand"; best_v="$v"; fi
  done < <(railgun_jdk_candidates | awk '!seen[$0]++')
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
