#!/usr/bin/env bash
# The README promises that the admin UI's browser tests are skipped where Chromium or its driver is
# missing. This proves it on every CI run, whether or not the machine has a browser: the integration
# tests tagged "browser" run once with the browser's paths pointed at nothing and without CI=true
# (under which a missing browser fails them on purpose), and every one of them must report skipped,
# with no failure and no error. The full suite runs afterwards and writes its reports anew.
set -euo pipefail
cd "$(dirname "$0")/.."
. scripts/lib.sh

summary=target/failsafe-reports/failsafe-summary.xml
rm -f "$summary"
env -u CI ./mvnw -B -ntp -q test-compile failsafe:integration-test \
  -Dgroups=browser \
  -Dvfps.test.chromium=/nonexistent/chromium \
  -Dvfps.test.chromedriver=/nonexistent/chromedriver

value() { sed -n "s:.*<$1>\([0-9]*\)</$1>.*:\1:p" "$summary"; }
completed=$(value completed)
skipped=$(value skipped)
errors=$(value errors)
failures=$(value failures)
echo "browser tests without a browser: $completed run, $skipped skipped, $failures failed, $errors errors"
if [ "${completed:-0}" -eq 0 ] || [ "$skipped" -ne "$completed" ] || [ "$errors" -ne 0 ] \
  || [ "$failures" -ne 0 ]; then
  say "The browser tests must all be skipped, without errors, where there is no browser."
  exit 1
fi
