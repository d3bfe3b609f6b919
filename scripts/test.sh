#!/usr/bin/env bash
# `npm test`: installs what the tests need, then runs every check and test suite.
# System packages (Debian): chromium for Playwright, postgresql for the PostgreSQL store tests.
set -euo pipefail
cd "$(dirname "$0")/.."
root=$(pwd)
reports="$root/test-results"
mkdir -p "$reports"

step() { printf '\n=== %s ===\n' "$*"; }

missing=()
[ -x /usr/bin/chromium ] || missing+=(chromium fonts-liberation)
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

step "Build"
npm run build
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

step "Typecheck (npm run typecheck, one project per core), lint, size budgets (SDK ≤ 4 KB gzip, console first screen ≤ 150 KB gzip)"
# The console's operation types (src/gql/, not committed) come from codegen, which the build no longer runs
# (ADR 083); its type check and its tests (graphql-document.test.ts) read them.
run_parallel \
  'npm run codegen --silent -w apps/console && npx tsc -p apps/console' \
  'npx tsc -p apps/server' \
  'npx tsc -p e2e' \
  'npx tsc -p packages/sdk' \
  'npx tsc -p packages/contracts' \
  'npx biome check .' \
  'npm run size && npm run size -w apps/console'

step "Unit and integration tests (vitest), with the exact-answer suites again on the ClickHouse adapter (project server-clickhouse: the real engine through chdb)"
vitest_status=0
npx vitest run --reporter=default --reporter=json --outputFile.json="$reports/vitest.json" || vitest_status=$?

step "End-to-end tests (Playwright, Debian Chromium)"
e2e_status=0
PLAYWRIGHT_JSON_OUTPUT_NAME="$reports/playwright.json" npm run test:e2e || e2e_status=$?

node scripts/test-summary.mjs "$reports/vitest.json" "$reports/playwright.json"
[ "$vitest_status" -eq 0 ] && [ "$e2e_status" -eq 0 ]
