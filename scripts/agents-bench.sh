#!/usr/bin/env bash
# agents-bench.sh: the performance figures of issue #32's agents, in two runs of their own JVM each.
#
# Starts fast-sse (a private nginx on 127.0.0.1 serving static SSE bodies, so every reply takes a millisecond) and
# runs benchmarks/.../agents/AgentsRun on a generated agent trace (LLMBench's format, read and checked as
# @AgentTrace reads it; every tenth agent fans out two sub-agents after its turn 1) as a closed loop of every agent:
#   heap:     AGENTS (10000) agents of TURNS (8) turns, tool gaps uniform(TOOL_MS) (5000,15000 ms), so that nearly
#             all of them sit in a tool gap; every EVERY (15) s, the heap after a full GC per agent under way
#             (goal: at most 100 KB an agent). HEAP_PATH=drip/ serves these replies at 1 KB/s after their first
#             2 KB (seconds a turn, as scripts/sessions-heap.sh), so a share of the agents is in a stream instead.
#   lateness: LATE_AGENTS (1000) agents of LATE_TURNS (20) turns, tool gaps uniform(LATE_TOOL_MS) (500,1500 ms),
#             about 1,000 turns a second; how late each turn after a gap went out (send minus due), p50 to max,
#             after the first WARMUP_S (5) s (goal: p99 at most 5 ms at 1,000 turns/s).
# Needs: Java 17, Maven (offline once dependencies are cached), nginx (Debian nginx-light, installed when missing and
# run as root, without starting the system's service). Environment: MODES ("heap lateness"), PORT (18095), TOKENS
# (chunks a reply, 64), INPUT (tokens of a tool result, 200), XMX (2g), JAVA_OPTS (-XX:MaxTenuringThreshold=0, as
# scripts/trace-replay.sh), SKIP_BUILD, BENCH_CP (a classpath to run instead of the module's jar, which then is not
# built: e.g. the extension's target/classes, this class compiled alone and the module's dependencies).
set -uo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
fast="$root/benchmarks/fast-sse"
jar="$root/benchmarks/target/benchmarks.jar"
port="${PORT:-18095}"
tokens="${TOKENS:-64}"
input="${INPUT:-200}"
if [ ! -x /usr/sbin/nginx ] && [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null; then
  echo "agents-bench: installing nginx-light" >&2
  policy=
  if [ ! -e /usr/sbin/policy-rc.d ]; then
    printf '#!/bin/sh\nexit 101\n' >/usr/sbin/policy-rc.d && chmod +x /usr/sbin/policy-rc.d && policy=1
  fi
  { apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq nginx-light >/dev/null; } || true
  [ -z "$policy" ] || rm -f /usr/sbin/policy-rc.d
fi
for tool in java python3 /usr/sbin/nginx; do
  command -v "$tool" >/dev/null || { echo "agents-bench: $tool is missing (see the header of $0)" >&2; exit 2; }
done
if [ -n "${BENCH_CP:-}" ]; then
  jar="$BENCH_CP"
elif [ -z "${SKIP_BUILD:-}" ]; then
  (cd "$root" && mvn -q -B -pl benchmarks -am package -DskipTests) || exit 1
fi
"$fast/start.sh" "$port" "$tokens" >/dev/null || exit 1
trap '"$fast/stop.sh" "$port" >/dev/null' EXIT
ulimit -n 32768 2>/dev/null || true
echo "# $(date -u +%FT%TZ) $(nproc) cores; load average $(cut -d' ' -f1-3 /proc/loadavg); java: $(java -version 2>&1 | head -n 1)"
echo "# command: $0 with MODES='${MODES:-heap lateness}' AGENTS=${AGENTS:-10000} TURNS=${TURNS:-8} TOOL_MS=${TOOL_MS:-5000,15000}" \
  "LATE_AGENTS=${LATE_AGENTS:-1000} LATE_TURNS=${LATE_TURNS:-20} LATE_TOOL_MS=${LATE_TOOL_MS:-500,1500} XMX=${XMX:-2g}"
status=0
for mode in ${MODES:-heap lateness}; do
  case "$mode" in
    heap) run=(--url "http://127.0.0.1:$port/${HEAP_PATH:-}c$tokens" --agents "${AGENTS:-10000}" --turns "${TURNS:-8}" --tool-ms "${TOOL_MS:-5000,15000}" --every "${EVERY:-15}") ;;
    lateness) run=(--url "http://127.0.0.1:$port/c$tokens" --agents "${LATE_AGENTS:-1000}" --turns "${LATE_TURNS:-20}" --tool-ms "${LATE_TOOL_MS:-500,1500}"
      --warmup-s "${WARMUP_S:-5}") ;;
    *) echo "agents-bench: unknown mode $mode (heap or lateness)" >&2; exit 2 ;;
  esac
  # shellcheck disable=SC2086
  java -Xms256m -Xmx"${XMX:-2g}" ${JAVA_OPTS--XX:MaxTenuringThreshold=0} -cp "$jar" dev.llmbench.benchmarks.agents.AgentsRun \
    --mode "$mode" --input "$input" --max-tokens "$tokens" "${run[@]}" || status=$?
done
echo "# load average at the end $(cut -d' ' -f1-3 /proc/loadavg)"
exit $status
