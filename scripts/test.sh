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

step "Typecheck"
npm run typecheck

step "Lint"
npx biome check .

step "Size budgets (SDK ≤ 4 KB gzip, console first screen ≤ 150 KB gzip)"
npm run size
npm run size -w apps/console

step "Unit and integration tests (vitest)"
vitest_status=0
npx vitest run --reporter=default --reporter=json --outputFile.json="$reports/vitest.json" || vitest_status=$?
step "The exact-answer suites again, on the ClickHouse adapter (the real engine through chdb)"
EVENT_STORE=clickhouse npx vitest run --project server test/analytics test/acquisition test/incidents test/event-export test/event-store/export-events.test.ts || vitest_status=$?

step "End-to-end tests (Playwright, Debian Chromium)"
e2e_status=0
PLAYWRIGHT_JSON_OUTPUT_NAME="$reports/playwright.json" npm run test:e2e || e2e_status=$?

node scripts/test-summary.mjs "$reports/vitest.json" "$reports/playwright.json"
[ "$vitest_status" -eq 0 ] && [ "$e2e_status" -eq 0 ]
