# shellcheck shell=bash
# Sourced by the scripts that run one of LLMBench's commands (llmbench-cli) with this checkout's build.
# cli_classpath ROOT sets CP to the command-line module's compiled classes and runtime classpath (absolute:
# the extension's and the engine's classes folders, then the jars), building them when missing or stale.
cli_classpath() {
  local root=$1 file=$1/cli/target/runtime-classpath.txt
  if [ ! -d "$root/cli/target/classes/dev/llmbench" ] || [ ! -d "$root/extension/target/classes/dev/llmbench" ] \
     || [ ! -d "$root/engine/target/classes/dev/llmbench" ] || [ ! -s "$file" ] \
     || [ -n "$(find "$root/pom.xml" "$root/engine/pom.xml" "$root/extension/pom.xml" "$root/cli/pom.xml" -newer "$file")" ]; then
    # One reactor build: the classpath names the modules' classes folders, which only a build that compiles them
    # can resolve (nothing is installed). Tests skipped: the cli's tests need the extension's test kit, which a
    # build that compiles no test cannot give. Each module writes its own target/runtime-classpath.txt.
    mvn -q -B -f "$root/pom.xml" -pl cli -am compile dependency:build-classpath -Dmaven.test.skip=true \
      -Dmdep.includeScope=runtime -Dmdep.outputFile=target/runtime-classpath.txt || { echo "could not build llmbench-cli or resolve its classpath" >&2; return 1; }
  fi
  # shellcheck disable=SC2034 # read by the script that sourced this file
  CP="$root/cli/target/classes:$(cat "$file")"
}
