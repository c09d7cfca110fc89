#!/usr/bin/env bash
# gate-stability.sh: how much a level's output throughput moves between back-to-back runs of the same sweep, and
# how many requests the level sent, for each setting of llmbench.sweep.target-ci-half-width (the precision a level
# of automatic size runs to: `default` leaves it unset, ±5%; 0 is the fixed count alone, the default before #35).
# Runs sample-tests' LlamaServerGateStabilityTest (@ConcurrencySweep({1, 2, 4, 8}) on the defaults, an @Slo on TPOT
# p90) RUNS times per setting against URL, then prints every level of every run and, per level, the spread of its
# throughput across runs: (max - min) / mean, and the largest move between two consecutive runs of the setting.
#   export LLAMA_ROOT=/work/llama-cache/root; bash scripts/llama-server.sh start 8101 4
#   URL=http://127.0.0.1:8101 RUNS=3 PRECISIONS="0 default" bash scripts/gate-stability.sh
# Needs: Java 17, Maven (offline once dependencies are cached), python3.
set -uo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
url="${URL:-http://127.0.0.1:8101}"
runs="${RUNS:-3}"
precisions="${PRECISIONS:-0 default}"
out="${OUT:-$root/target/gate-stability}"
rm -rf "$out"; mkdir -p "$out"
echo "# $(date -u +%FT%TZ) $(nproc) cores; load average $(cut -d' ' -f1-3 /proc/loadavg); $url"
# Interleaved (run 1 of each setting, then run 2, ...), so that a change in the machine's load falls on both alike.
for i in $(seq 1 "$runs"); do
  for p in $precisions; do
    dir="$out/precision-$p/run-$i"
    setting=()
    [ "$p" = default ] || setting=(-Dllmbench.sweep.target-ci-half-width="$p")
    (cd "$root" && mvn -B -o -q -Preal-engine -pl sample-tests -am test -Dtest=LlamaServerGateStabilityTest \
      -Dsurefire.failIfNoSpecifiedTests=false -Dgate.stability=true -Dllmbench.base-url="$url" \
      "${setting[@]}" -Dllmbench.report.dir="$dir" > "$out/precision-$p-run-$i.log" 2>&1) \
      || { echo "gate-stability: run $i at $p failed, see $out/precision-$p-run-$i.log" >&2; exit 1; }
  done
done
python3 - "$out" <<'PY'
import glob, json, os, sys
out = sys.argv[1]
for pdir in sorted([d for d in glob.glob(os.path.join(out, "precision-*")) if os.path.isdir(d)]):
    p = pdir.rsplit("-", 1)[1]
    by_level = {}
    print(f"\nllmbench.sweep.target-ci-half-width={p}")
    print(f"{'run':>3} {'level':>6} {'requests':>8} {'window s':>8} {'out tok/s':>9} {'95% CI':>8} {'stop':>13} {'SLO att.':>8}")
    for run in sorted(glob.glob(os.path.join(pdir, "run-*")), key=lambda d: int(d.rsplit("-", 1)[1])):
        sweep = glob.glob(os.path.join(run, "*", "sweep.json"))[0]
        for l in json.load(open(sweep))["levels"]:
            level = json.load(open(os.path.join(os.path.dirname(sweep), l["label"] + ".json")))["llmbench"]
            t, lo, hi = l["output_throughput"], l["output_throughput_ci95_lower"], l["output_throughput_ci95_upper"]
            by_level.setdefault(l["label"], []).append(t)
            print(f"{run.rsplit('-', 1)[1]:>3} {l['label']:>6} {l['requests']:>8} {l['duration']:>8.1f} {t:>9.1f} "
                  f"{'±%.1f%%' % (100 * (hi - lo) / 2 / t):>8} {level.get('stop_reason', '?'):>13} "
                  f"{level.get('slo_attainment', float('nan')):>8.2f}")
    for label, ts in by_level.items():
        mean = sum(ts) / len(ts)
        moves = [abs(b - a) / a for a, b in zip(ts, ts[1:])]
        print(f"  {label}: spread {100 * (max(ts) - min(ts)) / mean:.1f}% of the mean over {len(ts)} runs, "
              f"largest move between consecutive runs {100 * max(moves or [0]):.1f}%")
PY
echo "# load average at the end $(cut -d' ' -f1-3 /proc/loadavg)"
