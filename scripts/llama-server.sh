#!/usr/bin/env bash
# Prepares, starts and stops llama.cpp's llama-server on 127.0.0.1 for LLMBench's real-engine tests.
#
#   scripts/llama-server.sh prepare            debootstrap a Debian forky root with llama.cpp-tools, write the model
#   scripts/llama-server.sh start PORT SLOTS [MODEL]
#                                              start llama-server (1 thread) and print its base URL; MODEL is
#                                              tiny (default, ~3.5M params) or slow-load (~300M params, F16:
#                                              ~1.3 s of real 503 "Loading model" for readiness tests), or the tiny
#                                              model's copies by llama-quantize: tiny-f16, tiny-q8_0, tiny-q4_0
#   scripts/llama-server.sh run PORT SLOTS [MODEL]
#                                              the same in the foreground, as the process itself: for @LaunchServer
#   scripts/llama-server.sh stop PORT          stop the server started on PORT
#
# LLAMA_ARGS adds flags to start and run, e.g. LLAMA_ARGS=--embeddings (the /v1/embeddings route) or
# LLAMA_ARGS=--jinja (the chat template's tool calls).
#
# Debian 12 has no llama.cpp and forky's needs a newer libc, so it runs in a chroot (cached in
# LLAMA_ROOT, default .llama/root). Idempotent; fails fast with one line saying why, never hangs.
set -euo pipefail

ROOT_DIR="$(cd "$(dirname "$0")/.." && pwd)"
LLAMA_ROOT="${LLAMA_ROOT:-$ROOT_DIR/.llama/root}"
MODEL_DIR=/opt/llmbench
CTX_PER_SLOT="${CTX_PER_SLOT:-512}"

die() { echo "llama-server.sh: $*" >&2; exit 1; }

mirror() {
  # DEBIAN_MIRROR wins; else the Debian mirror this machine's apt uses; else (Ubuntu, e.g. GitHub's runners)
  # Debian's own redirector.
  if [ -n "${DEBIAN_MIRROR:-}" ]; then echo "$DEBIAN_MIRROR"; return; fi
  local m
  m=$(grep -hoE '^(URIs:|deb) +https?://[^ ]+' /etc/apt/sources.list /etc/apt/sources.list.d/*.sources 2>/dev/null \
      | grep -E 'debian(/|$)' | grep -v security | head -n1 | awk '{print $2}' || true)
  echo "${m:-http://deb.debian.org/debian}"
}

prepare() {
  [ "$(id -u)" = 0 ] || die "must run as root (debootstrap and chroot need it)"
  if [ -x "$LLAMA_ROOT/usr/bin/llama-server" ] && [ -f "$LLAMA_ROOT$MODEL_DIR/tiny.gguf" ] \
     && [ -f "$LLAMA_ROOT$MODEL_DIR/slow-load.gguf" ] \
     && cmp -s "$ROOT_DIR/scripts/make_tiny_gguf.py" "$LLAMA_ROOT$MODEL_DIR/make_tiny_gguf.py"; then
    quantised_copies
    echo "llama-server already prepared in $LLAMA_ROOT"; return 0
  fi
  if ! command -v debootstrap >/dev/null || [ ! -f /usr/share/keyrings/debian-archive-keyring.gpg ]; then
    timeout 300 apt-get update -qq >/dev/null || die "apt-get update failed: no network to the package registry?"
    timeout 300 apt-get install -y -qq debootstrap debian-archive-keyring >/dev/null \
      || die "could not install debootstrap and debian-archive-keyring"
  fi
  local m; m=$(mirror)
  if [ ! -x "$LLAMA_ROOT/usr/bin/apt-get" ]; then
    rm -rf "$LLAMA_ROOT"; mkdir -p "$LLAMA_ROOT"
    echo "debootstrap forky from $m into $LLAMA_ROOT (about a minute)"
    timeout 900 debootstrap --variant=minbase forky "$LLAMA_ROOT" "$m" /usr/share/debootstrap/scripts/sid \
      > "$LLAMA_ROOT.debootstrap.log" 2>&1 \
      || die "debootstrap of Debian forky failed (see $LLAMA_ROOT.debootstrap.log)"
  fi
  if [ ! -x "$LLAMA_ROOT/usr/bin/llama-server" ]; then
    mount -t proc proc "$LLAMA_ROOT/proc" 2>/dev/null || true
    trap 'umount "$LLAMA_ROOT/proc" 2>/dev/null || true' RETURN
    echo "installing llama.cpp-tools, python3-gguf and python3-numpy in the root"
    timeout 900 chroot "$LLAMA_ROOT" apt-get -o Acquire::Check-Valid-Until=false update -qq >/dev/null \
      || die "apt-get update inside the forky root failed"
    DEBIAN_FRONTEND=noninteractive timeout 900 chroot "$LLAMA_ROOT" apt-get -o Acquire::Check-Valid-Until=false \
      install -y -qq --no-install-recommends llama.cpp-tools python3-gguf python3-numpy >/dev/null \
      || die "could not install llama.cpp-tools in the forky root"
  fi
  # Models are written under temporary names and the generator copied last, as the stamp that they are
  # complete: an interrupted prepare is redone, never mistaken for done.
  mkdir -p "$LLAMA_ROOT$MODEL_DIR"
  rm -f "$LLAMA_ROOT$MODEL_DIR/make_tiny_gguf.py"
  cp "$ROOT_DIR/scripts/make_tiny_gguf.py" "$LLAMA_ROOT$MODEL_DIR/generate.py"
  echo "writing the seeded tiny and slow-load models"
  timeout 300 chroot "$LLAMA_ROOT" python3 "$MODEL_DIR/generate.py" "$MODEL_DIR/tiny.gguf.tmp" >/dev/null \
    || die "could not write the tiny GGUF model"
  timeout 600 chroot "$LLAMA_ROOT" python3 "$MODEL_DIR/generate.py" "$MODEL_DIR/slow-load.gguf.tmp" \
    --embd 1024 --layers 24 --ff 2816 --f16 >/dev/null || die "could not write the slow-load GGUF model"
  mv "$LLAMA_ROOT$MODEL_DIR/tiny.gguf.tmp" "$LLAMA_ROOT$MODEL_DIR/tiny.gguf"
  mv "$LLAMA_ROOT$MODEL_DIR/slow-load.gguf.tmp" "$LLAMA_ROOT$MODEL_DIR/slow-load.gguf"
  cp "$ROOT_DIR/scripts/make_tiny_gguf.py" "$LLAMA_ROOT$MODEL_DIR/make_tiny_gguf.py"
  quantised_copies
  echo "prepared: $(chroot "$LLAMA_ROOT" llama-server --version 2>&1 | grep -m1 -i version || echo llama-server)"
}

# The tiny model in F16, Q8_0 and Q4_0 (drift between quantisations, docs/drift.md): well under a second each.
# Each is written under a temporary name and renamed, so a reader never sees half a file; a newer tiny model
# (a changed generator) makes them again.
quantised_copies() {
  local type
  for type in F16 Q8_0 Q4_0; do
    local out; out="tiny-$(echo "$type" | tr '[:upper:]' '[:lower:]').gguf"
    if [ ! -f "$LLAMA_ROOT$MODEL_DIR/$out" ] || [ "$LLAMA_ROOT$MODEL_DIR/tiny.gguf" -nt "$LLAMA_ROOT$MODEL_DIR/$out" ]; then
      timeout 120 chroot "$LLAMA_ROOT" llama-quantize "$MODEL_DIR/tiny.gguf" "$MODEL_DIR/$out.tmp.$$" "$type" >/dev/null 2>&1 \
        || die "llama-quantize could not write $out"
      mv "$LLAMA_ROOT$MODEL_DIR/$out.tmp.$$" "$LLAMA_ROOT$MODEL_DIR/$out"
    fi
  done
}

# The flags every server here gets: one thread (see shared/reference/real-engine.md), metrics, the alias.
server_args() {
  local port="$1" slots="$2" model="$3"
  [ -x "$LLAMA_ROOT/usr/bin/llama-server" ] || die "not prepared: run '$0 prepare' first"
  [ -f "$LLAMA_ROOT$MODEL_DIR/$model.gguf" ] || die "no model '$model' (tiny, tiny-f16, tiny-q8_0, tiny-q4_0 or slow-load); run '$0 prepare'"
  echo "-m $MODEL_DIR/$model.gguf --host 127.0.0.1 --port $port -np $slots -c $((slots * CTX_PER_SLOT)) -t 1 --metrics" \
    "--alias llmbench-tiny --no-webui ${LLAMA_ARGS:-}"
}

# In the foreground, as the process itself (exec): for a suite that launches the server (@LaunchServer) and
# reads its log, and stops it with SIGTERM.
run() {
  local port="${1:?port}" slots="${2:-1}" model="${3:-tiny}" args
  args=$(server_args "$port" "$slots" "$model") || exit 1
  # shellcheck disable=SC2086 # the flags are words on purpose
  exec chroot "$LLAMA_ROOT" llama-server $args
}

start() {
  local port="${1:?port}" slots="${2:-1}" model="${3:-tiny}" args
  args=$(server_args "$port" "$slots" "$model") || exit 1
  stop "$port" >/dev/null 2>&1 || true
  local log="$ROOT_DIR/.llama/server-$port.log"
  mkdir -p "$(dirname "$log")"
  # shellcheck disable=SC2086 # the flags are words on purpose
  nohup chroot "$LLAMA_ROOT" llama-server $args > "$log" 2>&1 &
  echo $! > "$ROOT_DIR/.llama/server-$port.pid"
  # Only check it is alive here: waiting for readiness is LLMBench's job, tested against the real 503 phase.
  sleep 0.2
  kill -0 "$(cat "$ROOT_DIR/.llama/server-$port.pid")" 2>/dev/null || die "llama-server exited at once (see $log)"
  echo "http://127.0.0.1:$port"
}

stop() {
  local port="${1:?port}"
  local pidfile="$ROOT_DIR/.llama/server-$port.pid"
  [ -f "$pidfile" ] || return 0
  local pid; pid=$(cat "$pidfile")
  pkill -P "$pid" 2>/dev/null || true
  kill "$pid" 2>/dev/null || true
  for _ in $(seq 50); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
  kill -9 "$pid" 2>/dev/null || true
  pkill -f "llama-server .*--port $port" 2>/dev/null || true
  rm -f "$pidfile"
}

case "${1:-}" in
  prepare) prepare ;;
  start) shift; start "$@" ;;
  run) shift; run "$@" ;;
  stop) shift; stop "$@" ;;
  *) die "usage: $0 prepare | start PORT [SLOTS] [tiny|slow-load] | run PORT [SLOTS] [tiny|slow-load] | stop PORT" ;;
esac
