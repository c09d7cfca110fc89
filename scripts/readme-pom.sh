#!/usr/bin/env bash
# Builds the README's pom exactly as printed: the first xml block under "## In your project" becomes the pom of a
# project of its own in a temporary folder, with the README's first benchmark (compiled, not run: it wants a real
# server's throughput) and examples/consumer's benchmark class (run on the embedded engine), against the installed
# artifacts and with the Maven on the PATH (Debian's 3.8.7 here: the oldest the README names). Then checks what the
# pom promises: the levels named in Surefire's XML, Allure results with the level parameter, parameter names in the
# class files (-parameters), and the Allure results of this run only (a result planted before the build is gone).
#   scripts/readme-pom.sh [--installed] [maven options]   --installed: LLMBench is installed already (CI, after
#                                                          scripts/consumer-example.sh)
set -euo pipefail
cd "$(dirname "$0")/.."
die() { echo "readme pom: $*" >&2; exit 1; }
install=1
if [ "${1:-}" = --installed ]; then install=0; shift; fi

project=$(mktemp -d "${TMPDIR:-/tmp}/llmbench-readme-pom.XXXXXX")
trap '[ -n "${KEEP:-}" ] || rm -rf "$project"' EXIT
# The first fenced block of a kind after a heading, as printed (the fences dropped).
block() {
  awk -v heading="$1" -v fence="\`\`\`$2" '
    $0 == heading { inside = 1; next }
    inside && /^## / { exit }
    inside && !open && $0 == fence { open = 1; next }
    open && $0 == "```" { exit }
    open { print }' README.md
}
block '## In your project' xml > "$project/pom.xml"
grep -q '<artifactId>llmbench-junit</artifactId>' "$project/pom.xml" || die "no pom with llmbench-junit under '## In your project' in README.md"
mkdir -p "$project/src/test/java/com/example"
block '## Your first benchmark' java > "$project/src/test/java/FirstBenchmark.java"
name=$(sed -n 's/^class \([A-Za-z0-9_]*\).*/\1/p' "$project/src/test/java/FirstBenchmark.java" | head -1)
[ -n "$name" ] || die "no test class under '## Your first benchmark' in README.md"
mv "$project/src/test/java/FirstBenchmark.java" "$project/src/test/java/$name.java"
cp examples/consumer/src/test/java/com/example/ModelServerBenchmarkTest.java "$project/src/test/java/com/example/"

if [ "$install" = 1 ]; then mvn -q -B -pl extension -am install -Dmaven.test.skip=true "$@"; fi
target="$project/target"
mkdir -p "$target/allure-results"
echo '{"name":"left by an earlier run"}' > "$target/allure-results/earlier-run-result.json"
mvn -B -f "$project/pom.xml" test -Dtest=ModelServerBenchmarkTest "$@" || die "the README's pom did not build"

xml="$target/surefire-reports/TEST-com.example.ModelServerBenchmarkTest.xml"
for c in 1 4; do
  grep -qF "testcase name=\"throughput(SweepLevelResult) C=$c\"" "$xml" || die "$xml names no level C=$c"
done
[ -f "$target/test-classes/$name.class" ] || die "the README's $name was not compiled"
[ ! -e "$target/allure-results/earlier-run-result.json" ] || die "an earlier run's Allure result is still in $target/allure-results"
grep -lq '"name":"level"' "$target"/allure-results/*-result.json 2>/dev/null || die "no Allure result records the level parameter"
# -parameters: the class file keeps the parameters' names (MethodParameters), which Allure shows instead of arg0.
javap -v -cp "$target/test-classes" com.example.ModelServerBenchmarkTest | grep -q 'MethodParameters' \
  || die "the test classes were compiled without -parameters"
echo "readme pom: the README's pom built as printed with $(mvn -B -v 2>/dev/null | grep -o 'Apache Maven [0-9.]*' | head -1): $name compiled," \
  "levels C=1 and C=4 named, Allure results of this run only, parameters by name"
