#!/usr/bin/env bash
# Moves the public API from the flat package dev.llmbench into packages by journey (issue #22, item 3):
# git mv of the files, then package declarations, imports and fully-qualified names everywhere.
# Idempotent: run it again after merging a branch that still uses the old names. The table and the rules
# are in move_api.py. Afterwards: rewrite the API dump (the command it prints) and build.
set -euo pipefail
cd "$(dirname "$0")/../.."
exec python3 scripts/dev/move_api.py "$@"
