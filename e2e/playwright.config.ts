import { existsSync } from 'node:fs';
import { defineConfig } from '@playwright/test';

// Debian's Chromium: no browser downloads on this machine or in CI. Its headless shell (apt package
// `chromium-headless-shell`, the same build as `chromium`) is what Playwright itself runs headless by default:
// Blink without the full browser around it: a fifth less browser CPU than `chromium --headless` for the same
// journeys (ADR 147). `chromium` stays the fallback, and CHROMIUM_PATH=/usr/bin/chromium shows a window
// (`--headed`, `--debug`), which the headless shell cannot.
const headlessShell = '/usr/bin/chromium-headless-shell';
const executablePath =
  process.env.CHROMIUM_PATH ?? (existsSync(headlessShell) ? headlessShell : '/usr/bin/chromium');
const chromiumArgs = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

export default defineConfig({
  testDir: './tests',
  outputDir: '../test-results/e2e',
  globalSetup: './support/global-setup.ts',
  timeout: 60_000,
  expect: { timeout: 10_000 },
  // Two workers, one per core: a third made the step slower alone (8.0 against 7.0 min, ADR 157).
  workers: 2,
  retries: 0,
  reporter: [['list'], ['json']],
  use: {
    baseURL: process.env.POLYFLOW_URL,
    browserName: 'chromium',
    launchOptions: { executablePath, args: chromiumArgs },
    screenshot: 'only-on-failure',
    // A failed test keeps its screenshot. Its trace (actions, DOM snapshots, network, console) only with
    // PW_TRACE=1: recording one for every test, passed ones included, cost the browser a DOM snapshot at each
    // action (ADR 149). Without the screencast either way, which made the GPU process encode frames (ADR 127).
    trace: process.env.PW_TRACE === '1' ? { mode: 'retain-on-failure', screenshots: false } : 'off',
    // The system's "reduce motion" (WCAG 2.3.3), which the console honours: no skeleton pulses, no spinner
    // turns, no panel slides in while a journey waits, reads or checks contrast (ADR 149; the Live journey
    // checks both settings).
    reducedMotion: 'reduce',
  },
});
