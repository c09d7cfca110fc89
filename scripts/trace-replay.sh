#!/usr/bin/env bash
# trace-replay.sh: how closely LLMBench keeps a trace's schedule at 1,000 requests/s and more.
#
# Starts a static SSE server (benchmarks/fast-sse: a private nginx on 127.0.0.1) and runs
# benchmarks/.../trace/TraceReplayRun REPEAT times, each in its own JVM: it generates a Mooncake-style trace
# (ROWS rows, Poisson at 100/s with whole-ms timestamps, 1-4 blocks of 512 tokens, 50 shared first blocks),
# checks it as @Trace does, replays WARMUP rows (not counted), then every row at RATE requests/s through the
# path a @TraceReplay level takes, and prints the schedule lag (send minus due) p50/p90/p99/p99.9/max per run
# and their medians, with the machine's load average before and after each run.
#
# Needs: Java 17, Maven (offline once dependencies are cached), nginx (Debian nginx-light, installed when
# missing and run as root, without starting the system's service). Settings (environment):
#   PORT=18093  REPEAT=3  ROWS=10000  RATE=1000  WARMUP=3000  TOKENS=64 (chunks per response)  SKIP_BUILD=
#   JAVA_OPTS=-XX:MaxTenuringThreshold=0 (the JVM's options beside -Xms256m -Xmx1g; the default promotes
#   survivors at once, which shortens G1's pauses at 1,000 requests/s: see benchmarks/README.md; JAVA_OPTS= for
#   the JVM's defaults, or add e.g. -Xlog:gc,safepoint:file=/tmp/gc.log to see its pauses)
#   NICE= (e.g. -10, as root: the replaying JVM's nice value, so that other work on a shared machine does not
#   stretch its collector's pauses and preempt its sending thread; the figures say which was used)
set -eu
root=$(cd "$(dirname "$0")/.." && pwd)
port=${PORT:-18093}
repeat=${REPEAT:-3}
rows=${ROWS:-10000}
rate=${RATE:-1000}
warmup=${WARMUP:-3000}
tokens=${TOKENS:-64}
jar=$root/benchmarks/target/benchmarks.jar
fast=$root/benchmarks/fast-sse
out=$(mktemp -d /tmp/trace-replay.XXXXXX)

if [ ! -x /usr/sbin/nginx ] && [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null; then
  echo "trace-replay: installing nginx-light" >&2
  policy=
  if [ ! -e /usr/sbin/policy-rc.d ]; then
    printf '#!/bin/sh\nexit 101\n' >/usr/sbin/policy-rc.d && chmod +x /usr/sbin/policy-rc.d && policy=1
  fi
  { apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq nginx-light >/dev/null; } || true
  [ -z "$policy" ] || rm -f /usr/sbin/policy-rc.d
fi
for tool in java python3 /usr/sbin/nginx; do
  command -v "$tool" >/dev/null || { echo "trace-replay: $tool is missing (see the header of $0)" >&2; exit 2; }
done

if [ -z "${SKIP_BUILD:-}" ]; then
  (cd "$root" && mvn -q -B -pl benchmarks -am package -DskipTests) || exit 1
fi

"$fast/start.sh" "$port" "$tokens" >/dev/null
trap '"$fast/stop.sh" "$port" >/dev/null' EXIT

echo "# $(date -u +%FT%TZ) $(nproc) cores; java: $(java -version 2>&1 | head -n 1)"
echo "# $rows rows at $rate requests/s after $warmup warm-up rows, $tokens-chunk responses from fast-sse on :$port; nice ${NICE:-0}"
for i in $(seq "$repeat"); do
  # shellcheck disable=SC2086
  nice -n "${NICE:-0}" java -Xms256m -Xmx1g ${JAVA_OPTS--XX:MaxTenuringThreshold=0} -cp "$jar" dev.llmbench.benchmarks.trace.TraceReplayRun --url "http://127.0.0.1:$port/c$tokens" \
    --rows "$rows" --rate "$rate" --warmup-rows "$warmup" --json | tee -a "$out/runs.jsonl" >/dev/null
  echo "run $i done" >&2
done

python3 - "$out/runs.jsonl" <<'PY'
import json, statistics, sys
runs = [json.loads(l) for l in open(sys.argv[1]) if l.strip()]
print("lag = send minus due (ms); send us = the sending thread's hand-over of a made request to the transport at its")
print("due time (p50/p99); made us = making the request ahead (prompt, JSON body: p50/p99); wake-up = how late")
print("a thread asking to sleep 1 ms woke meanwhile (ms, p50/p99); CPU = process CPU over wall, in cores")
print(f"{'run':>3} {'rows':>6} {'failed':>6} {'offered/s':>10} {'wall s':>7} {'CPU':>5} {'lag p50':>8} {'p90':>7} {'p99':>7} "
      f"{'p99.9':>7} {'max':>7} {'>2ms':>5} {'send us':>11} {'wake-up':>13}  load avg start -> end")
for i, j in enumerate(runs, 1):
    print(f"{i:>3} {j['requests']:>6} {j['failed']:>6} {j['offered_rate']:>10,.1f} {j['wall_s']:>7.2f} {j['cpu_util']:>5.2f} "
          f"{j['lag_p50_ms']:>8.3f} {j['lag_p90_ms']:>7.3f} {j['lag_p99_ms']:>7.3f} {j['lag_p999_ms']:>7.3f} {j['lag_max_ms']:>7.2f} "
          f"{j['late_over_2ms']:>5} {j['send_cost_p50_us']:>5.0f}/{j['send_cost_p99_us']:<5.0f} "
          f"{j['wakeup_p50_ms']:>6.3f}/{j['wakeup_p99_ms']:<6.2f}  {j['load_average_start']} -> {j['load_average_end']}")
    print(f"    GC pauses {j['gc_pauses']}: {j['gc_pause_total_ms']} ms in all, longest {j['gc_pause_max_ms']} ms; "
          f"made us {j.get('prepare_cost_p50_us', 0):.0f}/{j.get('prepare_cost_p99_us', 0):.0f}; heap allocated per request: "
          f"{j.get('alloc_sending_kb_per_request', 0):.1f} KB by the sending thread, {j.get('alloc_all_kb_per_request', 0):.1f} KB by all")
    if j.get("errors") and j["errors"] != "{}":
        print("    errors:", j["errors"])
med = lambda k: statistics.median(j[k] for j in runs)
print(f"median of {len(runs)}: lag p50 {med('lag_p50_ms'):.3f} ms, p99 {med('lag_p99_ms'):.3f} ms, max {med('lag_max_ms'):.2f} ms "
      f"(ms, send minus due)")
PY
echo "# raw results: $out/runs.jsonl; load average at end: $(cut -d' ' -f1-3 /proc/loadavg)"
