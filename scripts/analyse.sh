#!/usr/bin/env bash
# Reads results that already exist (CSV tables, vllm bench serve --save-result files, an earlier sweep's
# folder) and prints the findings, with this checkout's llmbench-cli. See docs/findings.md.
#
#   scripts/analyse.sh results/ --tp 8 --interconnect pcie --json analysis.json
#   scripts/analyse.sh --help
#
# Paths are the caller's. Exit status: 0 analysed, 1 a finding of a --fail-on kind, 2 input it cannot read.
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/.." && pwd)
# shellcheck source=scripts/lib-classpath.sh
. "$ROOT/scripts/lib-classpath.sh"
cli_classpath "$ROOT" || exit 2
exec java -cp "$CP" dev.llmbench.cli.AnalyseMain "$@"
