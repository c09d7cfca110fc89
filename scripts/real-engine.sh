#!/usr/bin/env bash
# Runs the real-engine tests and benchmarks: prepares llama-server (cached), starts one server with 1 slot
# on 8091 and one with 4 slots on 8092 for the sweeps, one with embeddings on 8093 and one with the Jinja chat
# template (tool calls) on 8094, the tiny model's F16, Q8_0 and Q4_0 copies on 8141-8143 (drift), runs every test
# tagged real-engine (`mvn
# -Preal-engine test`: the sweeps, and the suites that launch llama-server themselves), and stops the
# servers whatever happens.
set -uo pipefail
cd "$(dirname "$0")/.." || exit 1
if ! bash scripts/llama-server.sh prepare; then
  echo "real-engine: llama-server could not be prepared (reason above); real-engine benchmarks not run" >&2
  exit 1
fi
# shellcheck disable=SC2317 # called by the trap below
stop_servers() { for p in 8091 8092 8093 8094 8141 8142 8143; do bash scripts/llama-server.sh stop "$p"; done; }
trap stop_servers EXIT
bash scripts/llama-server.sh start 8091 1 || exit 1
bash scripts/llama-server.sh start 8092 4 || exit 1
# OpenAI-style embeddings need a pooling other than none; chat still works on this server.
LLAMA_ARGS="--embeddings --pooling mean" bash scripts/llama-server.sh start 8093 2 || exit 1
LLAMA_ARGS="--jinja" bash scripts/llama-server.sh start 8094 2 || exit 1
# The same tiny model quantised by llama-quantize: drift against F16 (LlamaServerDriftTest).
bash scripts/llama-server.sh start 8141 2 tiny-f16 || exit 1
bash scripts/llama-server.sh start 8142 2 tiny-q8_0 || exit 1
bash scripts/llama-server.sh start 8143 2 tiny-q4_0 || exit 1
mvn -Preal-engine test "$@"
status=$?
# A matrix killed during its second candidate and run again: the first reused, nothing measured twice.
bash scripts/matrix-real-engine.sh resume-check || status=1
exit $status
