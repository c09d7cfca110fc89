#!/usr/bin/env bash
# Builds and runs examples/consumer as a user's own project: LLMBench installed into the local Maven
# repository, then the example's own pom (outside the reactor). Then checks that the settings the README
# tells users to copy did their work: levels named in Surefire's XML, Allure results with the level
# parameter (extension autodetection on), the sweep's report folder; and that its one dependency,
# llmbench-junit, brings the embedded engine (llmbench-engine) and not the command line's picocli. Then runs the
# same tests on the newest JUnit 6 (-Djunit.version), which LLMBench supports beside 5.14.
# Maven options after the script's name go to both builds (e.g. -q, or -Dmaven.repo.local=DIR).
set -euo pipefail
cd "$(dirname "$0")/.."
die() { echo "consumer example: $*" >&2; exit 1; }
# The newest JUnit 6 on Maven Central: the example runs on it as well as on its own 5.14.
JUNIT6=6.1.3
# The version of junit-jupiter-api on a class path (one jar a line).
junit_of() { sed -n 's|.*/junit-jupiter-api-\([^/]*\)\.jar$|\1|p' <<< "$1" | head -1; }
target=examples/consumer/target

# What a user's project resolves: the parent pom, llmbench-engine and llmbench-junit (tests neither run nor built).
mvn -q -B -pl extension -am install -Dmaven.test.skip=true "$@"
rm -rf "$target"
mvn -B -f examples/consumer/pom.xml test "$@"

xml="$target/surefire-reports/TEST-com.example.ModelServerBenchmarkTest.xml"
for c in 1 4; do
  grep -qF "testcase name=\"throughput(SweepLevelResult) C=$c\"" "$xml" || die "$xml names no level C=$c"
done
grep -lq '"name":"level"' "$target"/allure-results/*-result.json 2>/dev/null \
  || die "no Allure result in $target/allure-results records the level parameter"
[ -f "$target/llmbench/com.example.ModelServerBenchmarkTest.throughput/table.txt" ] || die "no sweep report in $target/llmbench"
declared=$(grep -c '<groupId>dev.llmbench</groupId>' examples/consumer/pom.xml)
[ "$declared" = 1 ] || die "examples/consumer/pom.xml declares $declared LLMBench artifacts, not one (llmbench-junit)"
mvn -q -B -f examples/consumer/pom.xml org.apache.maven.plugins:maven-dependency-plugin:3.8.1:build-classpath \
  -Dmdep.outputFile=target/test-classpath.txt "$@"
classpath=$(tr ':' '\n' < "$target/test-classpath.txt")
grep -q '/llmbench-engine-[^/]*\.jar$' <<< "$classpath" || die "llmbench-junit did not bring llmbench-engine"
if grep -q '/picocli-[^/]*\.jar$' <<< "$classpath"; then die "picocli is on the example's classpath: only llmbench-cli needs it"; fi
echo "consumer example: built against the installed llmbench-junit (its one LLMBench dependency; llmbench-engine with it," \
  "no picocli); levels C=1 and C=4 named, Allure results and report written; on JUnit $(junit_of "$classpath")"

# The same tests on the newest JUnit 6 (the example's junit.version, 5.14 by default): only `mvn test` again.
rm -f "$xml"   # what the checks below read is this run's
mvn -q -B -f examples/consumer/pom.xml test -Djunit.version="$JUNIT6" "$@"
for c in 1 4; do
  grep -qF "testcase name=\"throughput(SweepLevelResult) C=$c\"" "$xml" || die "on JUnit $JUNIT6, $xml names no level C=$c"
done
if ! grep -q ' failures="0"' "$xml" || ! grep -q ' errors="0"' "$xml"; then die "on JUnit $JUNIT6, a test of $xml failed"; fi
mvn -q -B -f examples/consumer/pom.xml org.apache.maven.plugins:maven-dependency-plugin:3.8.1:build-classpath \
  -Djunit.version="$JUNIT6" -Dmdep.outputFile=target/test-classpath.txt "$@"
[ "$(junit_of "$(tr ':' '\n' < "$target/test-classpath.txt")")" = "$JUNIT6" ] || die "the JUnit $JUNIT6 run had another JUnit"
echo "consumer example: the same tests passed on JUnit $JUNIT6"
