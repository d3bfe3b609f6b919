import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { decisionsIndex } from '../docs/.vitepress/reference.mjs';
import { deadLinks, docsProblems, firstCommitDays, recordHeader, recordProblems } from './docs-records.mjs';

const docs = join(dirname(fileURLToPath(import.meta.url)), '..', 'docs');

const good = (body = 'We keep one log.') =>
  `# 007: A record\n\nStatus: accepted\nDate: 2026-11-24\n\n## Decision\n\n${body}\n`;

describe('decision records and ARCHITECTURE.md', () => {
  it('every record has a status and a date, is under 80 lines, holds no run log or dead link; ARCHITECTURE.md is under 150 lines', () => {
    expect(docsProblems(docs)).toEqual([]);
  });

  it("knows each committed record's first day from git", () => {
    const days = firstCommitDays(join(docs, 'decisions'));
    if (days.size === 0) return; // a shallow clone: the dates cannot be checked here
    expect(days.get('001-one-process-embedded-stores.md')).toBe('2026-11-20');
  });

  it('accepts a record with a status, a date, a figure and a commit', () => {
    expect(
      recordProblems('007-a-record.md', good('Each load 150,000 events costs 27 µs per event at `a58afc4`.')),
    ).toEqual([]);
  });

  it('refuses a record without a status or a date, or superseded by a record that does not exist', () => {
    expect(recordProblems('007-a.md', '# 007\n\nDate: 2026-11-24\n')).toEqual([
      'no "Status: accepted" or "Status: superseded by NNN" line',
    ]);
    expect(recordProblems('007-a.md', '# 007\n\nStatus: accepted\n')).toEqual(['no "Date: YYYY-MM-DD" line']);
    expect(
      recordProblems('007-a.md', good().replace('accepted', 'superseded by 099'), new Set(['007'])),
    ).toEqual(['superseded by 099, which does not exist']);
    expect(
      recordProblems('007-a.md', good().replace('accepted', 'superseded by 053'), new Set(['007', '053'])),
    ).toEqual([]);
  });

  it("reads a record's heading, status and date, and lists the records newest first with their status", () => {
    const superseded = good()
      .replace('# 007: A record', '# 006: An older record')
      .replace('accepted', 'superseded by 007');
    expect(recordHeader(good())).toEqual({
      number: '007',
      title: 'A record',
      status: 'accepted',
      supersededBy: null,
      date: '2026-11-24',
    });
    expect(recordHeader(superseded)).toMatchObject({ status: 'superseded by 007', supersededBy: '007' });
    expect(recordHeader('# A note\n')).toEqual({
      number: null,
      title: null,
      status: null,
      supersededBy: null,
      date: null,
    });
    const rows = decisionsIndex([
      ['006-an-older-record.md', superseded],
      ['README.md', '# not a record'],
      ['007-a-record.md', good()],
    ])
      .split('\n')
      .filter((line) => line.startsWith('| <span'));
    expect(rows).toEqual([
      '| <span id="adr-007">007</span> | [A record](/decisions/007-a-record) | accepted | <span class="nowrap">2026-11-24</span> |',
      '| <span id="adr-006">006</span> | [An older record](/decisions/006-an-older-record) | superseded by [007](#adr-007) | <span class="nowrap">2026-11-24</span> |',
    ]);
  });

  it('finds links to files that do not exist, not links to pages or anchors', () => {
    const text =
      '[053](053-ingestion-log-and-loader.md), [x](099-gone.md), [web](https://x.dev/a.md), [b](../benchmarks.md#ingestion)';
    expect(deadLinks(text, join(docs, 'decisions'))).toEqual(['099-gone.md']);
  });

  it('refuses a record of 80 lines or more', () => {
    expect(recordProblems('007-a.md', good('line\n'.repeat(80)))).toEqual(['88 lines (at most 79)']);
  });

  it.each([
    ['a time of day', 'Measured 24 November, 17:18–17:20 UTC.'],
    ['a time of day', 'quiet (02:49 UTC)'],
    ['a load average', 'on the shared machine, load average 7–10'],
    ['a load average', '3 timed rounds, back to back at load 9–11'],
    ['a machine path', 'the logs: `/work/bench-logs/s12-before-1.log`'],
    ['a machine path', 'written to /tmp/bench.duckdb first'],
    ['a table of runs', '| | before, run 1 | after, run 1 |\n| --- | --- | --- |'],
  ])('refuses a run log: %s', (what, line) => {
    expect(
      recordProblems('007-a.md', good(line)).some((problem) => problem.startsWith(`a run log: ${what}`)),
    ).toBe(true);
  });
});
