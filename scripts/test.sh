#!/usr/bin/env bash
# `npm test`: installs what the tests need, then runs every check and test suite.
# System packages (Debian): Chromium's headless shell for Playwright (e2e/playwright.config.ts, ADR 147),
# postgresql for the PostgreSQL store tests.
set -euo pipefail
cd "$(dirname "$0")/.."
root=$(pwd)
reports="$root/test-results"
mkdir -p "$reports"
# A step that fails before writing its report must not be summed from an earlier run's.
rm -f "$reports/vitest.json" "$reports/playwright.json"

step() { printf '\n=== %s (at %d s) ===\n' "$*" "$SECONDS"; }

missing=()
[ -x /usr/bin/chromium-headless-shell ] || missing+=(chromium-headless-shell fonts-liberation)
compgen -G '/usr/lib/postgresql/*/bin/initdb' >/dev/null || missing+=(postgresql)
if [ ${#missing[@]} -gt 0 ]; then
  step "Installing Debian packages: ${missing[*]}"
  sudo_cmd=()
  [ "$(id -u)" -eq 0 ] || sudo_cmd=(sudo)
  "${sudo_cmd[@]}" apt-get update -qq
  DEBIAN_FRONTEND=noninteractive "${sudo_cmd[@]}" apt-get install -y -qq --no-install-recommends "${missing[@]}"
fi

# `npm install` honours package-lock.json; `npm ci` refuses it here (see scripts/start.mjs).
if ! npm ls --depth=0 >/dev/null 2>&1; then
  step "Installing npm packages"
  npm install --no-audit --no-fund
fi

step "Build (the SDK, the console and its operation types, the server; the documentation site is built beside them and the checks)"
# The documentation site (vitepress, from committed sources only) builds in the background while the builds and
# the checks run: a core is idle for a third of the build step, and the journeys wait for it (end_to_end). Its
# output is printed there. Not a job of this shell (run_parallel counts its jobs and waits for them all): its exit
# status lands in a file.
docs_log=$(mktemp)
( (
  set +e
  npm run build:docs >"$docs_log" 2>&1
  echo $? >"$docs_log.exit" && mv "$docs_log.exit" "$docs_log.status"
) & )
# The console's operation types (src/gql/, not committed) come from codegen, which the build does not run
# (ADR 083); its type check and its tests (graphql-document.test.ts) read them. Generated before the console's
# build, so that the build is not older than its sources: the README journey's `npm start` would build the
# console again (scripts/start.mjs) while the other journeys' servers serve it.
npm run codegen --silent -w apps/console
# The console's vitest project would generate them again before its first test (its global setup): not twice.
export POLYFLOW_TEST_CODEGEN_DONE=1
npm run build -w packages/sdk
npm run build -w apps/console
npm run build -w apps/server
# The spawned servers and admin commands of the server tests run this build instead of compiling the
# TypeScript again in every process (apps/server/test/support/server-command.ts).
export POLYFLOW_TEST_BUILT=1

# Runs each command (a string) with at most one per core at a time, as the type checker and the linter use one
# core each; prints each one's output after it ends, in the order given; fails when any failed.
run_parallel() {
  local dir status=0 index=0 command
  dir=$(mktemp -d)
  for command in "$@"; do
    while [ "$(jobs -rp | wc -l)" -ge "$(nproc)" ]; do wait -n || true; done
    (
      set +e
      start=$SECONDS
      bash -c "$command" >"$dir/$index.log" 2>&1
      echo "$? $((SECONDS - start))" >"$dir/$index.status"
    ) &
    index=$((index + 1))
  done
  wait
  index=0
  for command in "$@"; do
    read -r code seconds <"$dir/$index.status"
    printf -- '--- %s (%s s): %s\n' "$command" "$seconds" "$([ "$code" -eq 0 ] && echo ok || echo "FAILED ($code)")"
    cat "$dir/$index.log"
    [ "$code" -eq 0 ] || status=1
    index=$((index + 1))
  done
  rm -rf "$dir"
  return "$status"
}

checks_title="Typecheck (npm run typecheck, one project per core), lint, the console first screen's size budget (≤ 150 KB gzip; the SDK's 4 KB budget is a vitest test: packages/sdk/test/size.test.ts)"
# The type checks run TypeScript 7, the native compiler (`npm run tsc`, ADR 172): the same errors as TypeScript 6
# for a sixth of its time. TypeScript 6 stays the `typescript` package, for the tools that load its JavaScript API.
checks() {
  run_parallel \
    'npm run -s tsc -- -p apps/console' \
    'npm run -s tsc -- -p apps/server' \
    'npm run -s tsc -- -p e2e' \
    'npm run -s tsc -- -p packages/sdk' \
    'npm run -s tsc -- -p packages/contracts' \
    'npx biome check .' \
    'npm run size -w apps/console'
  # Not `npm run size` (the SDK's budgets): packages/sdk/test/size.test.ts runs the same script in the vitest
  # step and asserts each bundle's budget (ADR 098).
}

vitest_title="Unit and integration tests (vitest), with the exact-answer suites again on the ClickHouse adapter (project server-clickhouse: the real engine through chdb)"
unit_tests() {
  npx vitest run --reporter=default --reporter=json --outputFile.json="$reports/vitest.json"
}

e2e_title="Documentation site (npm run build:docs, started with the build), then the end-to-end tests (Playwright, Debian Chromium's headless shell)"
# The README journey starts `npm start` over links to this checkout, which builds docs/ itself when it is
# missing: the site is built before the journeys start. The journeys check each screen's contrast without saving
# its screenshot (E2E_SCREENSHOTS=0, ADR 107).
end_to_end() {
  local waited=0 docs_status
  while [ ! -e "$docs_log.status" ] && [ "$waited" -lt 900 ]; do
    sleep 1
    waited=$((waited + 1))
  done
  cat "$docs_log"
  docs_status=$(cat "$docs_log.status" 2>/dev/null || echo 1)
  rm -f "$docs_log" "$docs_log.status"
  [ "$docs_status" -eq 0 ] || return "$docs_status"
  E2E_SCREENSHOTS=0 PLAYWRIGHT_JSON_OUTPUT_NAME="$reports/playwright.json" npm run test:e2e
}

checks_status=0 vitest_status=0 e2e_status=0
if [ "${POLYFLOW_TEST_TOGETHER:-}" != 1 ]; then
  # One step after another, each printing as it goes (ADR 092: measured faster on 2 cores than the three at once).
  step "$checks_title"
  checks || checks_status=$?
  step "$vitest_title"
  unit_tests || vitest_status=$?
  step "$e2e_title"
  end_to_end || e2e_status=$?
else
  # POLYFLOW_TEST_TOGETHER=1: the three steps at once (ADR 088, superseded by 092 as the default): each alone leaves a core idle for much of its time (tests waiting on
  # child processes, PostgreSQL, chdb, SMTP, the chain, the browser). The checks run at a lower priority, so
  # that the tests' timings are not theirs to lose. Vitest prints as it goes; the checks' output follows it, then
  # the journeys' (the rest of it as it comes).
  logs=$(mktemp -d)
  (nice -n 10 bash -c "$(declare -f run_parallel checks); checks") >"$logs/checks.log" 2>&1 &
  checks_pid=$!
  (end_to_end) >"$logs/e2e.log" 2>&1 &
  e2e_pid=$!
  step "$vitest_title"
  unit_tests || vitest_status=$?
  wait "$checks_pid" || checks_status=$?
  step "$checks_title"
  cat "$logs/checks.log"
  step "$e2e_title"
  # What it printed so far, then the rest as it comes, until it ends.
  tail -n +1 -f --pid="$e2e_pid" "$logs/e2e.log"
  wait "$e2e_pid" || e2e_status=$?
  rm -rf "$logs"
fi

node scripts/test-summary.mjs "$reports/vitest.json" "$reports/playwright.json"
printf 'npm test: %d s from its start, installs included\n' "$SECONDS"
[ "$checks_status" -eq 0 ] && [ "$vitest_status" -eq 0 ] && [ "$e2e_status" -eq 0 ]
