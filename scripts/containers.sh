#!/usr/bin/env bash
# Docker for LLMBench's container tests (@LaunchContainer), on a machine where no image registry is reachable.
#
#   scripts/containers.sh install     install Debian's docker.io when there is no dockerd
#   scripts/containers.sh start       start dockerd with no bridge (every container on the host network, so all
#                                     traffic stays on 127.0.0.1) unless a daemon already answers
#   scripts/containers.sh image       import the llama.cpp root (scripts/llama-server.sh prepare) as the image
#                                     llmbench/llama-server:local; skipped when the image is there and current
#   scripts/containers.sh check       fail when any container is left on the daemon (docker ps -a)
#   scripts/containers.sh stop        stop the daemon this script started (never one it found running)
#   scripts/containers.sh ci [ARGS]   CI: install; the no-daemon test while no daemon runs; start; image; every
#                                     test tagged container (mvn -Pcontainer test ARGS); check; stop
#
# The tests run with TESTCONTAINERS_RYUK_DISABLED=true (Testcontainers' reaper is an image from a registry;
# LLMBench removes its containers itself) and TESTCONTAINERS_HOST_OVERRIDE=127.0.0.1 (a daemon with no bridge
# has no `bridge` network for Testcontainers to look up): what this CI needs, not what a normal daemon needs.
# Needs root. Fails fast with one line saying why.
set -euo pipefail

ROOT_DIR="$(cd "$(dirname "$0")/.." && pwd)"
LLAMA_ROOT="${LLAMA_ROOT:-$ROOT_DIR/.llama/root}"
IMAGE=llmbench/llama-server:local
STATE_DIR="$ROOT_DIR/.llama"
STARTED="$STATE_DIR/dockerd.started-by-llmbench"
DOCKERD_LOG="$STATE_DIR/dockerd.log"

die() { echo "containers.sh: $*" >&2; exit 1; }
answers() { timeout 10 docker info >/dev/null 2>&1; }

install() {
  if command -v dockerd >/dev/null && command -v docker >/dev/null; then return 0; fi
  [ "$(id -u)" = 0 ] || die "must run as root to install docker.io"
  echo "installing Debian's docker.io"
  timeout 300 apt-get update -qq >/dev/null || die "apt-get update failed: no network to the package registry?"
  DEBIAN_FRONTEND=noninteractive timeout 600 apt-get install -y -qq --no-install-recommends docker.io >/dev/null \
    || die "could not install docker.io"
}

start() {
  if answers; then echo "a Docker daemon already answers: using it"; return 0; fi
  [ "$(id -u)" = 0 ] || die "must run as root to start dockerd"
  command -v dockerd >/dev/null || die "no dockerd: run '$0 install' first"
  mkdir -p "$STATE_DIR"
  # No bridge, no iptables: no container gets a private-range address; each uses the host network.
  nohup dockerd --bridge=none --iptables=false --ip-forward=false > "$DOCKERD_LOG" 2>&1 &
  echo $! > "$STARTED"
  for _ in $(seq 60); do
    if answers; then echo "dockerd started (pid $(cat "$STARTED"), log $DOCKERD_LOG)"; return 0; fi
    kill -0 "$(cat "$STARTED")" 2>/dev/null || { tail -n 20 "$DOCKERD_LOG" >&2; rm -f "$STARTED"; die "dockerd exited (log above)"; }
    sleep 0.5
  done
  tail -n 20 "$DOCKERD_LOG" >&2
  stop
  die "dockerd did not answer within 30 s (log above)"
}

# The generator's checksum labels the image: a root prepared again with other models is imported again.
root_stamp() { sha256sum "$LLAMA_ROOT/opt/llmbench/make_tiny_gguf.py" | cut -c1-16; }

image() {
  answers || die "no Docker daemon answers: run '$0 start' first"
  if [ ! -x "$LLAMA_ROOT/usr/bin/llama-server" ] || [ ! -f "$LLAMA_ROOT/opt/llmbench/make_tiny_gguf.py" ]; then
    LLAMA_ROOT="$LLAMA_ROOT" bash "$ROOT_DIR/scripts/llama-server.sh" prepare || die "the llama.cpp root could not be prepared"
  fi
  local stamp have
  stamp=$(root_stamp)
  have=$(docker image inspect --format '{{ index .Config.Labels "llmbench.root" }}' "$IMAGE" 2>/dev/null || true)
  if [ "$have" = "$stamp" ]; then echo "image $IMAGE is there (root $stamp)"; return 0; fi
  echo "importing $LLAMA_ROOT as $IMAGE (about 15 s, 1.2 GB)"
  tar -C "$LLAMA_ROOT" --exclude=./proc --exclude=./sys --exclude=./dev -c . \
    | timeout 600 docker import --change "LABEL llmbench.root=$stamp" - "$IMAGE" >/dev/null \
    || die "docker import of $LLAMA_ROOT failed"
  echo "imported $IMAGE: $(docker image inspect --format '{{ .Size }}' "$IMAGE" | awk '{printf "%.1f GB", $1 / 1e9}')"
}

check() {
  answers || die "no Docker daemon answers: nothing to check"
  local left
  left=$(docker ps -a --format '{{ .ID }} {{ .Image }} {{ .Status }}')
  if [ -n "$left" ]; then
    echo "containers left on the daemon after the run:" >&2; echo "$left" >&2
    return 1
  fi
  echo "docker ps -a: no container left"
}

stop() {
  [ -f "$STARTED" ] || return 0
  local pid; pid=$(cat "$STARTED")
  kill "$pid" 2>/dev/null || true
  for _ in $(seq 100); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
  kill -9 "$pid" 2>/dev/null || true
  rm -f "$STARTED"
  echo "dockerd (pid $pid) stopped"
}

ci() {
  install
  export TESTCONTAINERS_RYUK_DISABLED=true TESTCONTAINERS_HOST_OVERRIDE=127.0.0.1
  if answers; then
    echo "== no-daemon test skipped: a Docker daemon already answers here"
  else
    echo "== no daemon: a @LaunchContainer suite fails before its first level, saying how to start one"
    (cd "$ROOT_DIR" && DOCKER_HOST=unix:///nonexistent/docker.sock mvn -B -q -pl extension -am test \
      -Dbuild.groups=container-no-daemon -Dbuild.excludedGroups= \
      '-Dbuild.aloneGroups=container-no-daemon&(timing|absolute-timing)' "$@")
  fi
  trap stop EXIT
  start
  image
  echo "== the container tests: llama-server from $IMAGE through Testcontainers, and the faults"
  (cd "$ROOT_DIR" && timeout 900 mvn -B -Pcontainer test "$@")
  # The sample's report carries the startup phases read from the container's log.
  local level="$ROOT_DIR/sample-tests/target/llmbench/dev.llmbench.samples.container.LlamaServerContainerTest.sweep/C=1.json"
  grep -A2 '"startup"' "$level" | grep -q '"engine" : "llama.cpp"' \
    || die "the container sample's report $level has no llama.cpp startup phases"
  echo "startup phases in the report: $(grep -o '"summary" : "[^"]*"' "$level" | head -n1)"
  check
}

case "${1:-}" in
  install) install ;;
  start) start ;;
  image) image ;;
  check) check ;;
  stop) stop ;;
  ci) shift; ci "$@" ;;
  *) die "usage: $0 install | start | image | check | stop | ci [MAVEN ARGS]" ;;
esac
