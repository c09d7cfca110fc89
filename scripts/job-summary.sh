#!/usr/bin/env bash
# Turns each sweep's table.txt (written by the report into target/llmbench/<sweep>/) into Markdown: first the
# run's count of verdicts and every sweep that did not pass; then per sweep a heading, its verdict (the first line of
# table.txt, as the console and the pages state it), its table in a code block, its findings as a list. Appends to $GITHUB_STEP_SUMMARY on GitHub
# Actions (the run's summary page), prints to stdout anywhere else.
#
#   scripts/job-summary.sh [REPORT_DIR...]   default: every module's target/llmbench, examples' included;
#                                            not those of extension/, cli/ and engine/, whose sweeps are the
#                                            library's test fixtures
set -euo pipefail
cd "$(dirname "$0")/.."
LIMIT=900000   # GitHub drops a step summary over 1 MiB

if [ $# -eq 0 ]; then
  for d in */target/llmbench examples/*/target/llmbench; do
    case "$d" in extension/* | cli/* | engine/*) continue ;; esac
    [ -d "$d" ] && set -- "$@" "$d"
  done
fi

esc() { sed -e 's/&/\&amp;/g' -e 's/</\&lt;/g' -e 's/>/\&gt;/g'; }

markdown() {
  printf '## LLMBench sweeps\n\n'
  local tables=() table
  for d in "$@"; do
    [ -d "$d" ] || continue
    while IFS= read -r table; do tables+=("$table"); done < <(find "$d" -mindepth 2 -maxdepth 2 -name table.txt | sort)
  done
  if [ ${#tables[@]} -eq 0 ]; then
    echo "No sweep report found${1:+ in $*}: no sweep ran, or the build failed before one did."
    return
  fi
  local size=0 shown=0 fence='```' sweep body rows verdict passed=0 failed=0 broken=0 notpassed=()
  # The verdicts first: how many sweeps passed, and which did not, with why.
  for table in "${tables[@]}"; do
    verdict=$(grep -m1 '^verdict: ' "$table" || true)
    case "$verdict" in
      'verdict: PASSED'*) passed=$((passed + 1)) ;;
      'verdict: BROKEN'*) broken=$((broken + 1)); notpassed+=("- **$(basename "$(dirname "$table")")**: ${verdict#verdict: }") ;;
      'verdict: FAILED'*) failed=$((failed + 1)); notpassed+=("- **$(basename "$(dirname "$table")")**: ${verdict#verdict: }") ;;
    esac
  done
  printf '%s sweeps: %s passed, %s failed, %s broken. Overview of every sweep: %s\n\n' \
    "${#tables[@]}" "$passed" "$failed" "$broken" "$(printf '%s/index.html ' "$@")"
  if [ ${#notpassed[@]} -gt 0 ]; then printf '%s\n' "${notpassed[@]}" | esc; printf '\n'; fi
  for table in "${tables[@]}"; do
    sweep=$(basename "$(dirname "$table")")
    verdict=$(grep -m1 '^verdict: ' "$table" || true)
    # The table is every line up to its last row, heading (-- ...) or footnote (* ...); the findings follow.
    rows=$(awk '/ \| |^-- |^\* /{n=NR} END{print n+0}' "$table")
    body=$(
      printf '### %s\n\n' "$sweep"
      if [ -n "$verdict" ]; then printf '**%s**\n\n' "$(printf '%s' "${verdict#verdict: }" | esc)"; fi
      printf 'Charts and every level in detail: %s\n\n%stext\n' "${table%table.txt}index.html" "$fence"
      head -n "$rows" "$table" | grep -v '^verdict: '
      printf '%s\n' "$fence"
      tail -n +"$((rows + 1))" "$table" | grep -v '^[[:space:]]*$' | esc | sed 's/^/- /' || true
    )
    size=$((size + ${#body}))
    if [ "$size" -gt "$LIMIT" ]; then
      echo "_$(( ${#tables[@]} - shown )) more sweeps left out (a job summary holds 1 MiB): see their table.txt in the reports._"
      return
    fi
    printf '%s\n\n' "$body"
    shown=$((shown + 1))
  done
}

if [ -n "${GITHUB_STEP_SUMMARY:-}" ]; then
  markdown "$@" >> "$GITHUB_STEP_SUMMARY"
else
  markdown "$@"
fi
