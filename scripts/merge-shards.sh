#!/usr/bin/env bash
# Merges the shards of a sharded run (llmbench.shard.count > 1) into one run's report, with this checkout's
# llmbench-cli: per-level JSON and CSV, the table, charts and index.html under OUT/llmbench, and the Allure
# results under OUT/allure-results. See docs/sharding.md.
#
#   scripts/merge-shards.sh OUT SHARD...          e.g. scripts/merge-shards.sh merged shards/shard-0 shards/shard-1
#   scripts/merge-shards.sh OUT --allow-partial SHARD...
#
# Each SHARD is a shard's report folder (the one holding shard.json) or the folder holding its llmbench/ and
# allure-results/ (its module's target/). Exit status: 0 merged, 2 the shards do not add up to one run, 1 other.
set -euo pipefail
cd "$(dirname "$0")/.."
die() { echo "merge-shards: $*" >&2; exit 1; }
[ $# -ge 2 ] || die "usage: scripts/merge-shards.sh OUT [--allow-partial] SHARD..."
OUT=$1; shift
ARGS=()
for a in "$@"; do
  case "$a" in
    --*) ARGS+=("$a") ;;
    /*) ARGS+=("$a") ;;
    *) ARGS+=("$OLDPWD/$a") ;; # relative to where the script was called from
  esac
done
case "$OUT" in /*) ;; *) OUT="$OLDPWD/$OUT" ;; esac

# shellcheck source=scripts/lib-classpath.sh
. scripts/lib-classpath.sh
cli_classpath "$PWD" || die "no classpath"
exec java -cp "$CP" dev.llmbench.cli.merge.MergeMain --out "$OUT" "${ARGS[@]}"
