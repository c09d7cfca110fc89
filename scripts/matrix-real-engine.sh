#!/usr/bin/env bash
# The matrix of launched candidates on the real engine (#33): the tiny model in F16, Q8_0 and Q4_0 as three
# llama-server candidates (sample-tests' LlamaServerQuantMatrixTest, on port 8138).
#
#   scripts/matrix-real-engine.sh prepare        scripts/llama-server.sh prepare: the root, the tiny model and its
#                                                F16, Q8_0 and Q4_0 copies (llama-quantize)
#   scripts/matrix-real-engine.sh resume-check   run the matrix, kill the test JVM (SIGKILL) while the second
#                                                candidate runs, run it again with the same settings, and check that
#                                                the first candidate was reused, not launched or measured again, and
#                                                that Q8_0 and Q4_0 were still compared with its replies (drift), kept
#                                                beside the ledger since the reports go to another folder each run
#
# scripts/real-engine.sh calls both. Needs `scripts/llama-server.sh prepare` first; LLAMA_ROOT as there.
set -uo pipefail
ROOT_DIR="$(cd "$(dirname "$0")/.." && pwd)"
LLAMA_ROOT="${LLAMA_ROOT:-$ROOT_DIR/.llama/root}"
PORT=8138
TEST=LlamaServerQuantMatrixTest

die() { echo "matrix-real-engine.sh: $*" >&2; exit 1; }

# The quantised copies are written by llama-server.sh's prepare (idempotent: a copy already there is kept).
prepare() { bash "$ROOT_DIR/scripts/llama-server.sh" prepare; }

# The pid listening on the port, if any: after a SIGKILL of the JVM its candidate is an orphan to stop.
listener() { ss -ltnpH "sport = :$PORT" 2>/dev/null | grep -o 'pid=[0-9]*' | head -n1 | cut -d= -f2; }

# The test JVM under PID: the java process that runs surefirebooter*.jar (surefire starts it through `sh -c`, under
# Maven, under the subshell that started Maven). Maven's own command line names surefire too (its -D options): killing
# it instead leaves the test JVM running on, launching the next candidate.
test_jvm() { # PID
  local p
  for p in $(pgrep -P "$1"); do
    if [ "$(ps -o comm= -p "$p")" = java ] && tr '\0' ' ' <"/proc/$p/cmdline" 2>/dev/null | grep -q surefirebooter; then
      echo "$p"; return
    fi
    p=$(test_jvm "$p"); [ -n "$p" ] && { echo "$p"; return; }
  done
}

run_matrix() { # REPORT_DIR LOG
  (cd "$ROOT_DIR" && exec mvn -B -o -q -Preal-engine -pl sample-tests -am test -Dtest="$TEST" \
    -Dsurefire.failIfNoSpecifiedTests=false -Dllmbench.report.dir="$1" -Dllmbench.deployments.resume-dir="$RESUME") \
    >"$2" 2>&1
}

resume_check() {
  prepare || exit 1
  local work; work=$(mktemp -d /tmp/llmbench-matrix.XXXXXX)
  RESUME="$work/resume"
  local first="$work/first" second="$work/second"
  echo "resume-check: first run (killed during the second candidate), in $work"
  run_matrix "$first" "$work/first.log" &
  local mvn_pid=$!
  # Until F16 is measured completely and Q8_0's server has been launched.
  local jvm=""
  for _ in $(seq 1200); do
    if grep -q '"completed"' "$RESUME/ledger.json" 2>/dev/null && [ -s "$first/server-Q8_0.log" ]; then
      jvm=$(test_jvm "$mvn_pid")
      break
    fi
    kill -0 "$mvn_pid" 2>/dev/null || break
    sleep 0.1
  done
  [ -n "$jvm" ] || { kill "$mvn_pid" 2>/dev/null; cat "$work/first.log"; die "the first run never reached the second candidate"; }
  # F16's levels and its replies (drift.<load>.json): neither may be written again by the second run.
  local before; before=$(cd "$RESUME" && sha256sum F16/*.json)
  kill -9 "$jvm"
  wait "$mvn_pid" 2>/dev/null
  local orphan; orphan=$(listener)
  if [ -n "$orphan" ]; then echo "resume-check: stopping the killed run's orphaned candidate (pid $orphan)"; kill "$orphan"; fi
  for _ in $(seq 50); do [ -z "$(listener)" ] && break; sleep 0.1; done
  grep -q '"F16"' "$RESUME/ledger.json" || die "the ledger kept no F16 after the kill"
  echo "$before" | grep -q "drift.C_2.json" || die "F16's replies were not kept beside the ledger (F16/drift.C_2.json)"
  echo "resume-check: second run, same settings"
  if ! run_matrix "$second" "$work/second.log"; then cat "$work/second.log"; die "the second run failed"; fi
  local reused; reused=$(grep -o '\[llmbench\] .*resumed from .*' "$work/second.log" | head -n1)
  echo "$reused"
  echo "$reused" | grep -q "reusing F16 (measured completely at" || die "the second run did not say it reused F16"
  [ ! -e "$second/server-F16.log" ] || die "F16 was launched again"
  if [ ! -e "$second/server-Q8_0.log" ] || [ ! -e "$second/server-Q4_0.log" ]; then die "Q8_0 and Q4_0 were not both measured"; fi
  [ "$(cd "$RESUME" && sha256sum F16/*.json)" = "$before" ] || die "F16's levels were measured again"
  # Drift after the resume: both quantised candidates compared with the reused F16's replies at every load.
  local sweep; sweep=$(ls "$second"/*LlamaServerQuantMatrixTest*/sweep.json)
  python3 - "$sweep" <<'PY' || die "the second run's drift figures are missing (above)"
import json, sys
drift = json.load(open(sys.argv[1])).get("drift", {})
got = sorted((c["candidate"], c["load"]) for c in drift.get("candidates", []) if "mean_kld" in c and c["reference"] == "F16")
want = sorted((c, l) for c in ("Q8_0", "Q4_0") for l in ("C=1", "C=2"))
if got != want:
    sys.exit(f"drift against F16: expected {want} with their KL figures, found {got}")
PY
  grep -h "time to ready\|gives the most\|is highest\|drift against F16 (greedy" "$second"/*LlamaServerQuantMatrixTest*/table.txt
  echo "resume-check: passed: F16 reused from the killed run, nothing measured twice, Q8_0 and Q4_0 compared with its kept replies ($work)"
}

case "${1:-}" in
  prepare) prepare ;;
  resume-check) resume_check ;;
  *) die "usage: $0 prepare | resume-check" ;;
esac
