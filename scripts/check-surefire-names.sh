#!/usr/bin/env bash
# Checks that Surefire's XML, which CI test reporters (GitHub, GitLab, Jenkins) read, names every level of
# the sample sweep as people do (`throughputScalesWithLoad(SweepLevelResult, EarlierLevels) C=8`), not by
# index (`[4]`). The parameter list is matched loosely: the sample may take other parameters.
#
#   scripts/check-surefire-names.sh [SUREFIRE_REPORTS_DIR]    default: sample-tests/target/surefire-reports
set -euo pipefail
cd "$(dirname "$0")/.."
dir="${1:-sample-tests/target/surefire-reports}"
xml="$dir/TEST-dev.llmbench.samples.EmbeddedDeploymentBenchmarkTest.xml"
[ -f "$xml" ] || { echo "surefire names: no $xml: run the sample benchmarks first" >&2; exit 1; }
missing=()
for c in 1 2 4 8 16 32; do
  grep -qE "testcase name=\"throughputScalesWithLoad\(SweepLevelResult[^\"]*\) C=$c\"" "$xml" || missing+=("C=$c")
done
if [ ${#missing[@]} -gt 0 ]; then
  echo "surefire names: $xml has no testcase named for ${missing[*]}; it has:" >&2
  grep -o 'testcase name="[^"]*"' "$xml" | sed 's/^/  /' >&2
  echo "(set usePhrasedTestCaseMethodName in surefire's statelessTestsetReporter, as the root pom.xml does)" >&2
  exit 1
fi
echo "surefire names: every level of the sample sweep is named in $xml (C=1 ... C=32)"
