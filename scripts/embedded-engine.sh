#!/usr/bin/env bash
# Serves the embedded engine on its own (llmbench-cli's EmbeddedServerMain), so that any OpenAI client (curl,
# vllm bench serve, another benchmark) can be pointed at it, with this checkout's build:
#
#   scripts/embedded-engine.sh --port 8000 --profile mla-pcie
#   scripts/embedded-engine.sh --help          # every option, faults included
#
# Runs until stopped (Ctrl-C). Exit status 2 when the build or its classpath could not be made.
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/.." && pwd)
# shellcheck source=scripts/lib-classpath.sh
. "$ROOT/scripts/lib-classpath.sh"
cli_classpath "$ROOT" || exit 2
exec java -cp "$CP" dev.llmbench.cli.EmbeddedServerMain "$@"
