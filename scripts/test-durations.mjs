#!/usr/bin/env node
// Prints where a test run's time went, from the JSON reports `npm test` writes:
//   node scripts/test-durations.mjs [test-results/vitest.json] [test-results/playwright.json] [--top N] [--tests]
// Per vitest file: wall time (first start to end) and the sum of its tests; per Playwright test: its
// duration and worker. Compare two runs by running it on both report sets.
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';

const args = process.argv.slice(2);
const topAt = args.indexOf('--top');
const top = topAt >= 0 ? Number(args[topAt + 1]) : 25;
const showTests = args.includes('--tests');
const files = args.filter(
  (arg, index) => (!arg.startsWith('--') && index !== topAt + 1) || (topAt < 0 && !arg.startsWith('--')),
);
const [vitestPath = 'test-results/vitest.json', playwrightPath = 'test-results/playwright.json'] = files;

const seconds = (ms) => `${(ms / 1000).toFixed(1).padStart(7)} s`;

function relative(file) {
  const marker = file.search(/\/(apps|packages|scripts|e2e)\//);
  return marker >= 0 ? file.slice(marker + 1) : path.basename(file);
}

if (existsSync(vitestPath)) {
  const report = JSON.parse(readFileSync(vitestPath, 'utf8'));
  const rows = report.testResults.map((result) => {
    const testsMs = result.assertionResults.reduce((sum, test) => sum + (test.duration ?? 0), 0);
    return {
      file: relative(result.name),
      wallMs: result.endTime - result.startTime,
      testsMs,
      tests: result.assertionResults,
    };
  });
  const first = Math.min(...report.testResults.map((result) => result.startTime));
  const last = Math.max(...report.testResults.map((result) => result.endTime));
  const sum = rows.reduce((total, row) => total + row.wallMs, 0);
  console.log(
    `vitest: ${rows.length} files, ${report.numTotalTests} tests, first start to last end ${seconds(last - first)}, sum of files ${seconds(sum)}`,
  );
  rows.sort((a, b) => b.wallMs - a.wallMs);
  for (const row of rows.slice(0, top)) {
    console.log(`${seconds(row.wallMs)}  (tests ${seconds(row.testsMs)})  ${row.file}`);
    if (showTests) {
      const slow = [...row.tests].sort((a, b) => (b.duration ?? 0) - (a.duration ?? 0)).slice(0, 5);
      for (const test of slow) console.log(`            ${seconds(test.duration ?? 0)}  ${test.fullName}`);
    }
  }
} else {
  console.log(`(no ${vitestPath})`);
}

if (existsSync(playwrightPath)) {
  const report = JSON.parse(readFileSync(playwrightPath, 'utf8'));
  const rows = [];
  const walk = (suite, titles) => {
    for (const spec of suite.specs ?? []) {
      for (const test of spec.tests) {
        const result = test.results.at(-1) ?? {};
        rows.push({
          title: [...titles, spec.title].join(' › '),
          file: spec.file,
          ms: result.duration ?? 0,
          worker: result.workerIndex,
          status: result.status,
        });
      }
    }
    for (const child of suite.suites ?? []) walk(child, [...titles, child.title]);
  };
  for (const suite of report.suites) walk(suite, []);
  const sum = rows.reduce((total, row) => total + row.ms, 0);
  console.log(
    `\nplaywright: ${rows.length} tests, wall ${seconds(report.stats.duration)}, sum ${seconds(sum)}`,
  );
  const byFile = new Map();
  for (const row of rows) byFile.set(row.file, (byFile.get(row.file) ?? 0) + row.ms);
  for (const [file, ms] of [...byFile].sort((a, b) => b[1] - a[1])) console.log(`${seconds(ms)}  ${file}`);
  console.log('');
  rows.sort((a, b) => b.ms - a.ms);
  for (const row of rows.slice(0, top))
    console.log(`${seconds(row.ms)}  w${row.worker}  ${row.status}  ${row.title}`);
} else {
  console.log(`(no ${playwrightPath})`);
}
