#!/usr/bin/env bash
# client-ceiling.sh: how fast LLMBench's client can consume SSE, next to a vLLM-style Python client.
#
# Starts a static SSE server (benchmarks/fast-sse: a private nginx on 127.0.0.1) and runs, at C = 1, 64
# and 1,024, LLMBench's client (benchmarks/.../CeilingRun) and the Python peer (benchmarks/ref-client,
# asyncio + aiohttp, parser "any"), each in its own process, REPEAT times, and prints per run and as
# medians: CPU us per SSE event (process CPU time over the timed run / events), events/s, TTFT mean,
# p50, p99 and the p99 added over the same client's C=1 median, streams open at the same moment, peak
# threads, and the Python/LLMBench CPU ratio. Then heap per stream with 1,024 streams held open, and the
# heap a 10,000-token x 128-request level keeps, in a JVM capped at 100 MB.
#
# Needs: Java 17, Maven (the build is offline once dependencies are cached), nginx (Debian nginx-light),
# Debian python3 + python3-aiohttp; run as root on Debian, it installs the last two when they are missing
# (without starting the system's nginx service). Settings (environment):
#   PORT=18090  REPEAT=3  TRANSPORTS="netty"  (the extension's; add jdk okhttp to compare)  PY_PARSERS="any"  SKIP_BUILD=
#   SKIP_PYTHON=  SKIP_MEMORY=  LEVELS="1:100:10000 64:128:10000 1024:2048:1000"  (C:requests:tokens)
set -eu
root=$(cd "$(dirname "$0")/.." && pwd)
port=${PORT:-18090}
repeat=${REPEAT:-3}
transports=${TRANSPORTS:-netty}
parsers=${PY_PARSERS:-any}
levels=${LEVELS:-1:100:10000 64:128:10000 1024:2048:1000}
python=/usr/bin/python3
jar=$root/benchmarks/target/benchmarks.jar
fast=$root/benchmarks/fast-sse
out=$(mktemp -d /tmp/client-ceiling.XXXXXX)

# nginx-light and python3-aiohttp from Debian, when missing and we may install; the nginx service is not started.
missing=
[ -x /usr/sbin/nginx ] || missing="$missing nginx-light"
[ -n "${SKIP_PYTHON:-}" ] || { [ -x "$python" ] && "$python" -c 'import aiohttp' 2>/dev/null; } || missing="$missing python3-aiohttp"
if [ -n "$missing" ] && [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null; then
  echo "client-ceiling: installing$missing" >&2
  policy=
  if [ ! -e /usr/sbin/policy-rc.d ]; then
    printf '#!/bin/sh\nexit 101\n' >/usr/sbin/policy-rc.d && chmod +x /usr/sbin/policy-rc.d && policy=1
  fi
  # shellcheck disable=SC2086 # one word per package
  { apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq $missing >/dev/null; } || true
  [ -z "$policy" ] || rm -f /usr/sbin/policy-rc.d
fi

for tool in java "$python" /usr/sbin/nginx; do
  command -v "$tool" >/dev/null || { echo "client-ceiling: $tool is missing (see the header of $0)" >&2; exit 2; }
done
[ -n "${SKIP_PYTHON:-}" ] || "$python" -c 'import aiohttp' 2>/dev/null \
  || { echo "client-ceiling: python3-aiohttp is missing (apt-get install -y python3-aiohttp)" >&2; exit 2; }

if [ -z "${SKIP_BUILD:-}" ]; then
  (cd "$root" && mvn -q -B -pl benchmarks -am package -DskipTests) || exit 1
fi

"$fast/start.sh" "$port" 1000 10000 >/dev/null
trap '"$fast/stop.sh" "$port" >/dev/null' EXIT
base=http://127.0.0.1:$port

echo "# $(date -u +%FT%TZ) $(nproc) cores, load average at start: $(cut -d' ' -f1-3 /proc/loadavg)"
echo "# java: $(java -version 2>&1 | head -n 1); python: $("$python" --version)"
for level in $levels; do
  IFS=: read -r c reqs tokens <<<"$level"
  for _ in $(seq "$repeat"); do
    for t in $transports; do
      java -Xms256m -Xmx1g -cp "$jar" dev.llmbench.benchmarks.client.CeilingRun --url "$base/c$tokens" \
        --transport "$t" --concurrency "$c" --requests "$reqs" --json >>"$out/runs.jsonl"
    done
    if [ -z "${SKIP_PYTHON:-}" ]; then
      for p in $parsers; do
        "$python" "$root/benchmarks/ref-client/client.py" --url "$base/c$tokens" --concurrency "$c" \
          --requests "$reqs" --max-tokens "$tokens" --parser "$p" --json \
          | "$python" -c 'import json,sys; j=json.load(sys.stdin); j["client"]="python-aiohttp-"+j["parser"]; print(json.dumps(j))' \
          >>"$out/runs.jsonl"
      done
    fi
  done
done

if [ -z "${SKIP_MEMORY:-}" ]; then
  for t in $transports; do
    java -Xms256m -Xmx1g -cp "$jar" dev.llmbench.benchmarks.client.CeilingRun --mode inflight \
      --url "$base/slow/c1000" --transport "$t" --concurrency 1024 --settle 6 --json >>"$out/memory.jsonl"
    java -Xmx100m -cp "$jar" dev.llmbench.benchmarks.client.CeilingRun --url "$base/c10000" --transport "$t" \
      --concurrency 64 --requests 128 --retain --json >>"$out/retain.jsonl"
  done
fi

"$python" - "$out" <<'EOF'
import json, os, statistics, sys
out = sys.argv[1]
runs = [json.loads(l) for l in open(os.path.join(out, "runs.jsonl")) if l.strip()]
def med(xs):
    xs = [x for x in xs if x is not None]
    return statistics.median(xs) if xs else None
def f(x, fmt):
    return "-" if x is None else format(x, fmt)
print()
print("Every run (CPU = process CPU time over the timed run, all threads):")
hdr = f"{'client':<24}{'C':>5}{'ok/fail':>11}{'events/s':>12}{'CPU us/ev':>11}{'TTFT mean':>11}{'p50':>9}{'p99':>9}{'open':>6}{'thr':>5}"
print(hdr)
for j in runs:
    print(f"{j['client']:<24}{j['concurrency']:>5}{str(j['requests_ok'])+'/'+str(j['requests_failed']):>11}"
          f"{j['events_per_s']:>12,.0f}{f(j['cpu_us_per_event'],'.2f'):>11}{f(j['mean_ttft_ms'],'.2f'):>11}"
          f"{f(j.get('p50_ttft_ms'),'.2f'):>9}{f(j.get('p99_ttft_ms'),'.2f'):>9}{f(j.get('max_open_together'),'d'):>6}"
          f"{f(j.get('peak_threads'),'d'):>5}")
    for e in (j.get("errors") or [])[:3]:
        print("    error:", e)
print()
print("Medians (TTFT in ms; added p99 = p99 minus the same client's C=1 median TTFT; ratio = Python CPU/event over ours):")
clients = sorted({j["client"] for j in runs}, key=lambda c: (not c.startswith("llmbench"), c))
cs = sorted({j["concurrency"] for j in runs})
floor = {}
for cl in clients:
    one = [j for j in runs if j["client"] == cl and j["concurrency"] == min(cs)]
    floor[cl] = med([j.get("p50_ttft_ms") or j.get("mean_ttft_ms") for j in one])
print(f"{'client':<24}{'C':>5}{'runs':>5}{'failed':>7}{'events/s':>12}{'CPU us/ev':>11}{'TTFT mean':>11}{'p99':>9}{'added p99':>11}{'open':>6}{'thr':>5}{'ratio':>8}")
for c in cs:
    py = [med([j["cpu_us_per_event"] for j in runs if j["client"] == cl and j["concurrency"] == c])
          for cl in clients if cl.startswith("python")]
    py = min([p for p in py if p is not None], default=None)
    for cl in clients:
        js = [j for j in runs if j["client"] == cl and j["concurrency"] == c]
        if not js:
            continue
        cpu = med([j["cpu_us_per_event"] for j in js])
        p99 = med([j.get("p99_ttft_ms") for j in js])
        added = None if p99 is None or floor[cl] is None else p99 - floor[cl]
        ratio = None if cl.startswith("python") or py is None or not cpu else py / cpu
        print(f"{cl:<24}{c:>5}{len(js):>5}{sum(j['requests_failed'] for j in js):>7}"
              f"{med([j['events_per_s'] for j in js]):>12,.0f}{f(cpu,'.2f'):>11}"
              f"{f(med([j['mean_ttft_ms'] for j in js]),'.2f'):>11}{f(p99,'.2f'):>9}{f(added,'.2f'):>11}"
              f"{f(med([j.get('max_open_together') for j in js]),'.0f'):>6}{f(med([j.get('peak_threads') for j in js]),'.0f'):>5}"
              f"{f(ratio,'.1f')+('x' if ratio else ''):>8}")
for name, title in (("memory.jsonl", "Streams held open (throttled body, 1,000 tokens; heap after full GC, minus idle):"),
                    ("retain.jsonl", "A 10,000-token x 128-request level in a JVM with -Xmx100m (heap the traces keep after a full GC):")):
    p = os.path.join(out, name)
    if os.path.exists(p):
        print()
        print(title)
        for l in open(p):
            if l.strip():
                print("  " + ", ".join(f"{k}={v}" for k, v in json.loads(l).items() if k != "errors" or v))
print()
print(f"raw results: {out}")
EOF
echo "# load average at end: $(cut -d' ' -f1-3 /proc/loadavg)"
