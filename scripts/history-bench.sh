#!/usr/bin/env bash
# history-bench.sh: the history's change-point detection on known truth.
#
# Runs benchmarks/.../history/ChangePointBenchmark: seeded series of nightly runs (60 runs, a step at run 41 of
# -3%, -5% or -10% in Gaussian noise of 2%, 3% or 5% spread; noise only; slow drifts; 5% outlier runs at -30%) and
# prints, for Otava's defaults (t-test, window 50, p <= 0.001) and p <= 0.01, the share of steps detected (within 2
# runs), the false alarms per 100 runs, and how many runs after the step were measured when it was first reported.
# Arguments go to the benchmark: --series N (200) --runs N (60) --step-at N (40) --seed N (34)
# --permutations N (also the original E-divisive judged by N seeded permutations; slower).
#
# Needs: Java 17 and Maven (offline once dependencies are cached). SKIP_BUILD=1 reuses benchmarks/target.
set -eu
root=$(cd "$(dirname "$0")/.." && pwd)
if [ -z "${SKIP_BUILD:-}" ]; then
  (cd "$root" && mvn -q -B -pl benchmarks -am package -DskipTests) || exit 1
fi
exec java -cp "$root/benchmarks/target/benchmarks.jar" dev.llmbench.benchmarks.history.ChangePointBenchmark "$@"
