#!/usr/bin/env bash
# soak.sh: a long closed-loop run that fails when the heap after GC, the live threads or the open files grow.
#
# Runs benchmarks/.../SoakRun in one JVM: the extension's client against the embedded engine in the same JVM
# (default; --url for another server, e.g. benchmarks/fast-sse), and prints every interval the heap after a
# full GC, live threads, open file descriptors, requests done and the load average; exits 1 when, against the
# first sample, the least of the last three grew beyond its tolerance, or any request failed.
#
# Usage: scripts/soak.sh [--duration 30m] [--interval 1m] [--concurrency 16] [--max-tokens 128]
#                        [--profile instant] [--url URL] [--heap-tolerance-mb 16] [--thread-tolerance 2] [--fd-tolerance 4]
# Environment: SKIP_BUILD= (skip the Maven build)  JAVA_OPTS="-Xmx256m" (the soak's JVM)
# On a shared machine, run it as `nice -n 10 scripts/soak.sh` so it yields to the builds beside it.
set -eu
root=$(cd "$(dirname "$0")/.." && pwd)
if [ -z "${SKIP_BUILD:-}" ]; then
  (cd "$root" && mvn -q -B -o -pl benchmarks -am package -DskipTests) || exit 1
fi
# A copy, so that a rebuild while the soak runs cannot change the classes under it.
jar=$(mktemp /tmp/soak-benchmarks.XXXXXX.jar)
trap 'rm -f "$jar"' EXIT
cp "$root/benchmarks/target/benchmarks.jar" "$jar"
# shellcheck disable=SC2086 # JAVA_OPTS is words
java ${JAVA_OPTS:--Xmx256m} -cp "$jar" dev.llmbench.benchmarks.client.SoakRun "$@"
