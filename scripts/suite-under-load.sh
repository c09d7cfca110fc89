#!/usr/bin/env bash
# suite-under-load.sh: runs the whole test suite (`mvn -B -o test`, the README's second command) RUNS times
# in a row, each with HOGS busy loops beside it (one per core: the busy CI runner of issue #21), and prints a
# line a run: wall time, tests run and failed per module, the load average at start and end, and the first
# failure's name. Exits 1 if any run failed. Logs stay in a temporary folder it names.
#
#   scripts/suite-under-load.sh                 # RUNS=3 HOGS=2
#   RUNS=3 HOGS=0 scripts/suite-under-load.sh   # the same suite alone
#
# Needs Maven's dependencies cached (one online `mvn test` first); a hog is `sh -c 'while :; do :; done'`.
set -uo pipefail
cd "$(dirname "$0")/.." || exit 2
runs=${RUNS:-3}
hogs=${HOGS:-2}
out=$(mktemp -d /tmp/suite-under-load.XXXXXX)
hog_pids=()
stop_hogs() { for p in "${hog_pids[@]}"; do kill "$p" 2>/dev/null; done; hog_pids=(); }
trap stop_hogs EXIT

echo "# $(date -u +%FT%TZ) $(nproc) cores; $runs runs of 'mvn -B -o test' with $hogs busy loops beside each; logs in $out"
failed=0
for i in $(seq "$runs"); do
  for _ in $(seq "$hogs"); do sh -c 'while :; do :; done' & hog_pids+=($!); done
  load_start=$(cut -d' ' -f1 /proc/loadavg)
  start=$(date +%s)
  mvn -B -o test >"$out/run$i.log" 2>&1
  rc=$?
  secs=$(( $(date +%s) - start ))
  load_end=$(cut -d' ' -f1 /proc/loadavg)
  stop_hogs
  # Surefire's closing line per module: "Tests run: N, Failures: F, Errors: E, Skipped: S" (no " -- in").
  counts=$(grep -E '^\[(INFO|ERROR|WARNING)\] Tests run: [0-9]+, Failures: [0-9]+, Errors: [0-9]+, Skipped: [0-9]+$' "$out/run$i.log" \
           | sed -E 's/.*Tests run: ([0-9]+), Failures: ([0-9]+), Errors: ([0-9]+), Skipped: ([0-9]+)/\1 run, \2 failed, \3 errors/' \
           | paste -sd ';' -)
  first=$(grep -m1 -E '^\[ERROR\] (Tests run:.*FAILURE|  [A-Za-z].*(»|:[0-9]+ ))' "$out/run$i.log" | cut -c1-200)
  verdict=passed
  if [ "$rc" != 0 ]; then verdict=FAILED; failed=1; fi
  printf 'run %d: %s in %dm%02ds | load %s -> %s | %s%s\n' "$i" "$verdict" $((secs / 60)) $((secs % 60)) \
    "$load_start" "$load_end" "${counts:-no surefire summary}" "${first:+ | first failure: $first}"
done
exit "$failed"
