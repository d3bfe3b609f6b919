// Prints one closing line over all suites: "tests: N passed, N failed, N skipped", after the names of the tests
// that failed and the first line of their errors: CI shows only the end of a run's output, where the
// reporters' own failure lists may have scrolled out of it.
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';

const failures = [];
const firstLine = (text) =>
  String(text ?? '')
    // biome-ignore lint/suspicious/noControlCharactersInRegex: the reporters' colour codes
    .replace(/\u001b\[[0-9;]*m/g, '')
    .split('\n')
    .find((line) => line.trim() !== '')
    ?.trim()
    .slice(0, 300) ?? '';

let passed = 0;
let failed = 0;
let skipped = 0;
const [vitestReport, playwrightReport] = process.argv.slice(2);

if (vitestReport && existsSync(vitestReport)) {
  const report = JSON.parse(readFileSync(vitestReport, 'utf8'));
  passed += report.numPassedTests ?? 0;
  failed +=
    (report.numFailedTests ?? 0) + (report.numFailedTestSuites > 0 && report.numFailedTests === 0 ? 1 : 0);
  skipped += (report.numPendingTests ?? 0) + (report.numTodoTests ?? 0);
  for (const file of report.testResults ?? []) {
    const where = path.relative(process.cwd(), file.name ?? '');
    const failed = (file.assertionResults ?? []).filter((test) => test.status === 'failed');
    for (const test of failed) {
      failures.push(
        `vitest ${where} › ${test.fullName ?? test.title}: ${firstLine(test.failureMessages?.[0])}`,
      );
    }
    if (file.status === 'failed' && failed.length === 0) {
      failures.push(`vitest ${where}: ${firstLine(file.message)}`);
    }
  }
} else {
  failed += 1;
  console.error('No vitest report found.');
}

if (playwrightReport && existsSync(playwrightReport)) {
  const { stats } = JSON.parse(readFileSync(playwrightReport, 'utf8'));
  passed += (stats?.expected ?? 0) + (stats?.flaky ?? 0);
  failed += stats?.unexpected ?? 0;
  skipped += stats?.skipped ?? 0;
  const visit = (suite, file) => {
    for (const spec of suite.specs ?? []) {
      for (const test of spec.tests ?? []) {
        if (test.status !== 'unexpected') continue;
        const error = test.results?.at(-1)?.error?.message;
        failures.push(`playwright ${spec.file ?? file}:${spec.line} › ${spec.title}: ${firstLine(error)}`);
      }
    }
    for (const child of suite.suites ?? []) visit(child, suite.file ?? file);
  };
  for (const suite of JSON.parse(readFileSync(playwrightReport, 'utf8')).suites ?? [])
    visit(suite, suite.file);
} else {
  failed += 1;
  console.error('No Playwright report found.');
}

if (failures.length > 0) console.log(`\nfailed:\n${failures.map((line) => `  ${line}`).join('\n')}`);
console.log(`\ntests: ${passed} passed, ${failed} failed, ${skipped} skipped`);
