# shellcheck shell=bash
# Sourced by the scripts that run one of the extension's command-line tools with this checkout's build.
# extension_classpath ROOT sets CP to the extension's compiled classes and runtime classpath (absolute),
# building them when missing or stale.
extension_classpath() {
  local root=$1 file=$1/extension/target/runtime-classpath.txt
  if [ ! -d "$root/extension/target/classes/dev/llmbench" ]; then
    mvn -q -B -f "$root/pom.xml" -pl extension compile || { echo "could not compile the extension" >&2; return 1; }
  fi
  if [ ! -s "$file" ] || [ "$root/extension/pom.xml" -nt "$file" ] || [ "$root/pom.xml" -nt "$file" ]; then
    mvn -q -B -f "$root/pom.xml" -pl extension dependency:build-classpath -Dmdep.includeScope=runtime \
      -Dmdep.outputFile="$file" || { echo "could not resolve the extension's classpath" >&2; return 1; }
  fi
  # shellcheck disable=SC2034 # read by the script that sourced this file
  CP="$root/extension/target/classes:$(cat "$file")"
}
