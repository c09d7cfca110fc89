#!/usr/bin/env bash
# Turns a module's Allure results into a report (Allure 3 from npm; history kept across runs in the module's
# .allure-history). For the sample run (the default module, sample-tests), then opens it in headless Chromium over
# 127.0.0.1: expands the sweep's throughput chart, and opens the sweep's summary result (first in its branch of the
# tree, with the table, findings and charts), and a level's timeline attachment, saving a screenshot of each; then
# checks the sweep's own index.html the same way (check-page.mjs), and the run's overview and the sweep's verdict and
# facts (check-overview.mjs). Fails in one line if anything is missing.
#
#   scripts/allure-report.sh                   the sample run's report: generate and check
#   scripts/allure-report.sh MODULE            the report of MODULE/target/allure-results (any module, yours too:
#                                              a folder, from where you are), in MODULE/target/allure-report
#   scripts/allure-report.sh [MODULE] --serve  generate, then serve the report on 127.0.0.1 until Ctrl-C
set -euo pipefail
caller=$PWD
cd "$(dirname "$0")/.."
repo=$PWD
die() { echo "allure-report: $*" >&2; exit 1; }
serve=0
module=sample-tests
for arg in "$@"; do
  case "$arg" in
    --serve) serve=1 ;;
    -*) die "unknown option $arg: scripts/allure-report.sh [MODULE] [--serve]" ;;
    *) module=$arg ;;
  esac
done
case "$module" in
  /*) dir=$module ;;
  *) if [ -d "$caller/$module" ]; then dir=$caller/$module; else dir=$repo/$module; fi ;;
esac
[ -d "$dir" ] || die "no module folder $module"
dir=$(cd "$dir" && pwd)
RESULTS=$dir/target/allure-results
REPORT=$dir/target/allure-report
if [ "$dir" = "$repo/sample-tests" ]; then
  samples=1
  config=$repo/allure-config/allurerc.json
else
  samples=0
  # The same report settings, for this module: its output and history beside its own results.
  config=$dir/target/allurerc.json
  mkdir -p "$dir/target"
  node -e 'const [base, out, history, name, to] = process.argv.slice(1);
    const c = JSON.parse(require("fs").readFileSync(base, "utf8"));
    Object.assign(c, {name, output: out, historyPath: history});
    c.plugins.awesome.options.reportName = name;
    require("fs").writeFileSync(to, JSON.stringify(c, null, 2));' \
    "$repo/allure-config/allurerc.json" "$REPORT" "$dir/.allure-history/history.jsonl" "LLMBench: $(basename "$dir")" "$config" \
    || die "could not write $config (node is needed: Node.js 20)"
fi

[ -d "$RESULTS" ] || die "no $RESULTS: run the module's tests first (the samples: the README's first command)"
command -v npm >/dev/null || die "npm is needed (Node.js 20): apt-get install nodejs npm"
if [ ! -d allure-config/node_modules/allure ] || [ ! -d allure-config/node_modules/puppeteer-core ]; then
  (cd allure-config && timeout 300 npm ci --no-audit --no-fund --loglevel=error) \
    || die "npm ci in allure-config failed: is the npm registry reachable?"
fi
rm -rf "$REPORT"   # nothing of an earlier report may pass the check
(cd allure-config && npx allure generate "$RESULTS" --config "$config" >/dev/null) || die "allure generate failed"
echo "report: $REPORT/index.html (open it served: scripts/allure-report.sh $module --serve)"
if [ "$serve" = 1 ]; then
  cd allure-config && exec npx allure open "$REPORT"
fi
# The checks below read the sample run's own tests; another module's report is generated, not checked.
[ "$samples" = 1 ] || exit 0

# CHROMIUM names another Chromium-based browser (e.g. google-chrome on GitHub's runners).
if [ -z "${CHROMIUM:-}" ] && ! command -v chromium >/dev/null; then
  [ "$(id -u)" = 0 ] || die "chromium is needed for the report check: apt-get install chromium"
  (timeout 600 apt-get update -qq && DEBIAN_FRONTEND=noninteractive timeout 900 apt-get install -y -qq chromium) >/dev/null \
    || die "could not install chromium from Debian's packages"
fi
# The sweep's charts are on the test that ended it: its @AfterSweep check, which its verdict includes.
node allure-config/check-report.mjs "$REPORT" "throughputScalesWithLoad(SweepLevelResult, EarlierLevels) scalesWithoutFallingOrFailing (after the sweep)" "chart: throughput" \
  sample-tests/target/allure-chart.png "throughputScalesWithLoad · sweep summary" sample-tests/target/allure-sweep-summary.png
node allure-config/check-report.mjs "$REPORT" "throughputScalesWithLoad(SweepLevelResult, EarlierLevels) C=8" "C=8 timeline" \
  sample-tests/target/allure-timeline.png
# LLMBench's own page of the same sweep: the answer first, then charts, findings and table; a level's timeline.
node allure-config/check-page.mjs sample-tests/target/llmbench/dev.llmbench.samples.EmbeddedDeploymentBenchmarkTest.throughputScalesWithLoad \
  "C=8" sample-tests/target/page-top.png sample-tests/target/page-level.png
# The run's overview: every sweep's verdict and link; the sample sweep's page states its verdict and what was measured.
node allure-config/check-overview.mjs sample-tests/target/llmbench dev.llmbench.samples.EmbeddedDeploymentBenchmarkTest.throughputScalesWithLoad \
  sample-tests/target/overview.png sample-tests/target/page-facts.png
