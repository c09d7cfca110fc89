#!/usr/bin/env bash
# Builds and runs examples/consumer as a user's own project: LLMBench installed into the local Maven
# repository, then the example's own pom (outside the reactor). Then checks that the settings the README
# tells users to copy did their work: levels named in Surefire's XML, Allure results with the level
# parameter (extension autodetection on), the sweep's report folder; and that its one dependency,
# llmbench-junit, brings the embedded engine (llmbench-engine) and not the command line's picocli.
# Maven options after the script's name go to both builds (e.g. -q, or -Dmaven.repo.local=DIR).
set -euo pipefail
cd "$(dirname "$0")/.."
die() { echo "consumer example: $*" >&2; exit 1; }
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
  "no picocli); levels C=1 and C=4 named, Allure results and report written"
