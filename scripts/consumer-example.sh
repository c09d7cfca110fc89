#!/usr/bin/env bash
# Builds and runs examples/consumer as a user's own project: LLMBench installed into the local Maven
# repository, then the example's own pom (outside the reactor). Then checks that the settings the README
# tells users to copy did their work: levels named in Surefire's XML, Allure results with the level
# parameter (extension autodetection on), the sweep's report folder.
set -euo pipefail
cd "$(dirname "$0")/.."
die() { echo "consumer example: $*" >&2; exit 1; }
target=examples/consumer/target

mvn -q -B install -DskipTests
rm -rf "$target"
mvn -B -f examples/consumer/pom.xml test "$@"

xml="$target/surefire-reports/TEST-com.example.ModelServerBenchmarkTest.xml"
for c in 1 4; do
  grep -qF "testcase name=\"throughput(SweepLevelResult) C=$c\"" "$xml" || die "$xml names no level C=$c"
done
grep -lq '"name":"level"' "$target"/allure-results/*-result.json 2>/dev/null \
  || die "no Allure result in $target/allure-results records the level parameter"
[ -f "$target/llmbench/com.example.ModelServerBenchmarkTest.throughput/table.txt" ] || die "no sweep report in $target/llmbench"
echo "consumer example: built against the installed llmbench-junit; levels C=1 and C=4 named, Allure results and report written"
