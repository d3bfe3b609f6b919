// What a decision record (docs/decisions/NNN-title.md) and docs/ARCHITECTURE.md must be for a newcomer to
// read them: checked by docs-records.test.mjs. A record states its status and date, says its decision and
// why in under 80 lines, and holds no run log (figures live in docs/benchmarks.md, one table per budget).
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

export const MAX_RECORD_LINES = 80;
export const MAX_ARCHITECTURE_LINES = 150;

// A record's first lines: `Status: accepted` or `Status: superseded by NNN`, then `Date: YYYY-MM-DD` (the
// day of its first commit).
const STATUS = /^Status: (accepted|superseded by (\d{3}))$/m;
const DATE = /^Date: (\d{4})-(\d{2})-(\d{2})$/m;

/**
 * A record's number and title (its first heading, "# 165: Gas paid and …"), its status ("accepted",
 * "superseded by NNN"), the record superseding it and its date, each null where the record lacks it.
 */
export function recordHeader(text) {
  const heading = /^# (\d{3}): (.*)$/m.exec(text);
  const status = STATUS.exec(text);
  const date = DATE.exec(text);
  return {
    number: heading?.[1] ?? null,
    title: heading?.[2] ?? null,
    status: status?.[1] ?? null,
    supersededBy: status?.[2] ?? null,
    date: date ? `${date[1]}-${date[2]}-${date[3]}` : null,
  };
}

// Signs of a run log: a time of day, a load average, a path on the machine that ran it, a table of runs.
export const RUN_LOG_PATTERNS = [
  { name: 'a time of day', pattern: /\b\d{1,2}:\d{2}(?:\s*[–-]\s*\d{1,2}:\d{2})?\s*UTC\b/ },
  { name: 'a load average', pattern: /\b(?:at|under) (?:a )?load (?:average )?(?:of )?(?:about )?\d/i },
  { name: 'a load average', pattern: /\bload average\b/i },
  { name: 'a machine path', pattern: /(?:^|[\s`(])\/(?:work|tmp|home|root|var|mnt)\//m },
  { name: 'a machine path', pattern: /\bbench-logs\b/ },
  { name: 'a table of runs', pattern: /^\|.*\b(?:run|round) \d+\b.*\|/im },
];

/** The problems of one record's text, named by what is wrong; `known` holds the record numbers present. */
export function recordProblems(name, text, known = new Set()) {
  const problems = [];
  if (!/^\d{3}-[a-z0-9-]+\.md$/.test(name)) problems.push('its name is not NNN-title.md');
  const lines = text.replace(/\n$/, '').split('\n');
  if (lines.length >= MAX_RECORD_LINES)
    problems.push(`${lines.length} lines (at most ${MAX_RECORD_LINES - 1})`);
  const status = STATUS.exec(text);
  if (!status) problems.push('no "Status: accepted" or "Status: superseded by NNN" line');
  else if (status[2] && !known.has(status[2]))
    problems.push(`superseded by ${status[2]}, which does not exist`);
  else if (status[2] && name.startsWith(status[2])) problems.push('superseded by itself');
  const date = DATE.exec(text);
  if (!date) problems.push('no "Date: YYYY-MM-DD" line');
  else if (Number.isNaN(Date.parse(`${date[1]}-${date[2]}-${date[3]}T00:00:00Z`)))
    problems.push('its date is not a date');
  for (const { name: what, pattern } of RUN_LOG_PATTERNS) {
    const match = pattern.exec(text);
    if (match) problems.push(`a run log: ${what} ("${match[0].trim()}")`);
  }
  return [...new Set(problems)];
}

/**
 * The day each record under `dir` was first committed (`git log`), by file name; empty outside a full clone
 * (a shallow one starts its history late). A record not committed yet has no entry.
 */
export function firstCommitDays(dir) {
  const git = (...args) => spawnSync('git', args, { cwd: dir, encoding: 'utf8' });
  const shallow = git('rev-parse', '--is-shallow-repository');
  if (shallow.status !== 0 || shallow.stdout.trim() !== 'false') return new Map();
  // One walk of the history (newest first) for every record, instead of one per record: the last day a
  // name is listed under is the day of its oldest commit.
  const log = git(
    'log',
    '--diff-merges=first-parent',
    '--format=%x00%as',
    '--name-only',
    '--relative',
    '--',
    '.',
  );
  const days = new Map();
  for (const entry of log.stdout.split('\0')) {
    const [day, ...names] = entry.trim().split('\n');
    for (const name of names) if (name.endsWith('.md') && !name.includes('/')) days.set(name, day);
  }
  return days;
}

/** The relative links of a Markdown text (`[label](path)`, anchors left out) that name no file under `dir`. */
export function deadLinks(text, dir) {
  const dead = [];
  for (const [, target] of text.matchAll(/\]\(([^)#\s]+)(?:#[^)]*)?\)/g)) {
    if (/^[a-z]+:/.test(target)) continue;
    if (!existsSync(join(dir, target))) dead.push(target);
  }
  return dead;
}

/** Every problem of the records in `docsDir`/decisions, ARCHITECTURE.md and benchmarks.md, as "file: problem". */
export function docsProblems(docsDir) {
  const dir = join(docsDir, 'decisions');
  const names = readdirSync(dir).filter((name) => name.endsWith('.md'));
  const known = new Set(names.map((name) => name.slice(0, 3)));
  const days = firstCommitDays(dir);
  const problems = [];
  for (const name of names) {
    const text = readFileSync(join(dir, name), 'utf8');
    for (const problem of recordProblems(name, text, known)) problems.push(`decisions/${name}: ${problem}`);
    const dated = DATE.exec(text);
    if (dated && days.has(name) && dated[0] !== `Date: ${days.get(name)}`) {
      problems.push(`decisions/${name}: ${dated[0]}, but first committed on ${days.get(name)}`);
    }
    for (const link of deadLinks(text, dir)) problems.push(`decisions/${name}: a link to nothing (${link})`);
  }
  for (const page of ['ARCHITECTURE.md', 'benchmarks.md']) {
    const text = readFileSync(join(docsDir, page), 'utf8');
    for (const link of deadLinks(text, docsDir)) problems.push(`${page}: a link to nothing (${link})`);
  }
  const architecture = readFileSync(join(docsDir, 'ARCHITECTURE.md'), 'utf8').replace(/\n$/, '').split('\n');
  if (architecture.length >= MAX_ARCHITECTURE_LINES) {
    problems.push(`ARCHITECTURE.md: ${architecture.length} lines (at most ${MAX_ARCHITECTURE_LINES - 1})`);
  }
  return problems;
}
