#!/usr/bin/env bash
# sessions-heap.sh: heap per multi-turn session in flight. Starts fast-sse (a private nginx on 127.0.0.1 serving
# static SSE bodies; /drip/ sends each reply at 1 KB/s after its first 2 KB, so every turn takes seconds) and runs
# SessionsRun: SESSIONS (10000) synthetic sessions of TURNS (4) turns, all under way at once, each turn resending
# its history with the replies read whole; after every reply to turn k it prints the heap after a full GC minus the
# heap before, per session under way (goal: under 100 KB).
# Needs: Java 17, Maven (offline once dependencies are cached), nginx (Debian nginx-light, installed when root).
# Environment: PORT (18094), SESSIONS, TURNS, THINK_MS (uniform(3000,6000)), TOKENS (chunks a reply, 64), XMX (2g),
# SKIP_BUILD.
set -uo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
fast="$root/benchmarks/fast-sse"
jar="$root/benchmarks/target/benchmarks.jar"
port="${PORT:-18094}"
sessions="${SESSIONS:-10000}"
turns="${TURNS:-4}"
think="${THINK_MS:-uniform(3000,6000)}"
tokens="${TOKENS:-64}"
if [ ! -x /usr/sbin/nginx ] && [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null; then
  echo "sessions-heap: installing nginx-light" >&2
  { apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq nginx-light >/dev/null; } || true
fi
for tool in java python3 /usr/sbin/nginx; do
  command -v "$tool" >/dev/null || { echo "sessions-heap: $tool is missing (see the header of $0)" >&2; exit 2; }
done
if [ -z "${SKIP_BUILD:-}" ]; then
  (cd "$root" && mvn -q -B -pl benchmarks -am package -DskipTests) || exit 1
fi
"$fast/start.sh" "$port" "$tokens" >/dev/null || exit 1
trap '"$fast/stop.sh" "$port" >/dev/null' EXIT
ulimit -n 32768 2>/dev/null || true
echo "# $(date -u +%FT%TZ) $(nproc) cores; load average $(cut -d' ' -f1-3 /proc/loadavg); java: $(java -version 2>&1 | head -n 1)"
java -Xmx"${XMX:-2g}" -cp "$jar" dev.llmbench.benchmarks.load.SessionsRun --url "http://127.0.0.1:$port/drip/c$tokens" \
  --sessions "$sessions" --turns "$turns" --think-ms "$think" --max-tokens "$tokens"
status=$?
echo "# load average at the end $(cut -d' ' -f1-3 /proc/loadavg)"
exit $status
