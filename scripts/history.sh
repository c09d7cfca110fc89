#!/usr/bin/env bash
# Prints series of a benchmark history and their change points, with this checkout's llmbench-cli. See docs/history.md.
#
#   scripts/history.sh --file .llmbench/history.jsonl --figure output_throughput,ttft.p99 --level C=32
#   scripts/history.sh --jdbc jdbc:postgresql://db/bench --user bench --branch main --fail-within 3
#   scripts/history.sh --help
#
# PostgreSQL needs its JDBC driver: DRIVER_CP=/path/to/postgresql.jar. Exit status: 0 printed, 1 a change point in
# the newest --fail-within runs, 2 a store it cannot read.
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/.." && pwd)
# shellcheck source=scripts/lib-classpath.sh
. "$ROOT/scripts/lib-classpath.sh"
cli_classpath "$ROOT" || exit 2
exec java -cp "$CP${DRIVER_CP:+:$DRIVER_CP}" dev.llmbench.cli.HistoryMain "$@"
