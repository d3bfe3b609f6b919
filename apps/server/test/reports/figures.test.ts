import { beforeAll, describe, expect, it } from 'vitest';
import { dataOf, graphqlClient } from '../analytics/graphql-client.ts';
import { storeRows } from '../support/event-stores.ts';
import { useTestApp } from '../support/harness.ts';
import { type SeededUser, seed } from '../support/seed.ts';
import { reportEvents, WEEK } from './fixture.ts';

/**
 * A weekly report's figures (docs/reports.md) equal the console's questions over the same week and the
 * previous period the console compares with; figures derived by hand in fixture.ts. Runs on DuckDB here
 * and on ClickHouse in the server-clickhouse project.
 */
const t = useTestApp('sqlite');
let owner: SeededUser;
let projectId: string;
let email: { text: string; html?: string; subject: string; headers: Record<string, string> };

const gql = () => graphqlClient(t.app);
const ask = async (query: string, variables: Record<string, unknown>) =>
  dataOf(await gql()(query, { projectId, ...variables }, { token: owner.token }));

beforeAll(async () => {
  const seeded = await seed(t.services).user().verified().project('Swap <dapp> & co');
  owner = seeded.user;
  projectId = seeded.project.id;
  await storeRows(t.services.eventStore, reportEvents(projectId));
  await t.services.reports.updateMine({ id: owner.id, email: owner.email, ip: '127.0.0.1' }, projectId, {
    weekly: true,
    monthly: false,
  });
  // Monday 2026-11-23, 06:00 UTC: the week of the 16th has just ended.
  t.clock.advance(Date.parse('2026-11-23T06:00:00Z') - t.clock().getTime());
  const outcomes = await t.services.reports.sendDue();
  expect(outcomes.find((outcome) => outcome.sent > 0)?.period).toMatchObject({
    kind: 'weekly',
    fromMs: Date.parse(WEEK.from),
    toMs: Date.parse(WEEK.to),
  });
  email = await t.mail.waitFor(owner.email, { subject: /Weekly report/ });
  // Back to now: the owner's session was issued now, and the console's questions below name their range.
  t.clock.reset();
});

const line = (label: string) => email.text.split('\n').find((text) => text.startsWith(`${label}: `));

describe('the weekly report', () => {
  it('names the project and the week in its subject', () => {
    expect(email.subject).toBe('Weekly report for Swap <dapp> & co: 2026-11-16 to 2026-11-22');
  });

  it('states the hand-derived figures with the console’s changes', () => {
    expect(line('Visits')).toBe('Visits: 4 (▲ 33%)');
    expect(line('Users')).toBe('Users: 4 (▲ 33%)');
    expect(line('Connected wallets')).toBe('Connected wallets: 2 (▲ 100%)');
    expect(line('Transactions')).toBe('Transactions: 3 (▲ 200%)');
    expect(line('Transaction fail rate')).toBe('Transaction fail rate: 66.7% (▲ 66.7 pp)');
    expect(email.text).toContain('changes against 2026-11-09 to 2026-11-15');
    expect(email.text).toContain('  1. twitter: 2 (▲ 100%)\n  2. newsletter: 1 (▼ 50%)');
    // Severity as the Incidents screen decides it (docs/acquisition-and-incidents.md): X reached 3 of the
    // week's users, Y one.
    expect(email.text).toContain(
      "  1. Uncaught TypeError: Cannot read properties of undefined (reading 'amount') (Mid severity): 3 (▲ 200%)\n" +
        '  2. The requested account and/or method has not been authorized by the user. (Low severity): 1 (new)',
    );
  });

  it('has the figures the console’s questions answer for the same week and the period before', async () => {
    const overview = `query O($projectId: ID!, $from: DateTime, $to: DateTime, $previous: Boolean) {
      analyticsOverview(projectId: $projectId, from: $from, to: $to, previous: $previous) {
        from to connectedWallets totalTransactions transactionFailRate } }`;
    const funnel = `query F($projectId: ID!, $from: DateTime, $to: DateTime, $previous: Boolean) {
      acquisitionFunnel(projectId: $projectId, from: $from, to: $to, previous: $previous) { steps { key users } } }`;
    const attribution = `query A($projectId: ID!, $from: DateTime, $to: DateTime, $previous: Boolean) {
      attribution(projectId: $projectId, dimension: source, from: $from, to: $to, previous: $previous) {
        rows { kind value sessions } } }`;
    const incidents = `query I($projectId: ID!, $from: DateTime, $to: DateTime) {
      incidents(projectId: $projectId, from: $from, to: $to, statuses: [open, resolved], first: 100) {
        rows { title occurrences } } }`;
    type Overview = {
      from: string;
      to: string;
      connectedWallets: number;
      totalTransactions: number;
      transactionFailRate: number | null;
    };
    const now = (await ask(overview, WEEK)).analyticsOverview as Overview;
    const before = (await ask(overview, { ...WEEK, previous: true })).analyticsOverview as Overview;
    expect(before).toMatchObject({ from: '2026-11-09T00:00:00.000Z', to: '2026-11-16T00:00:00.000Z' });
    expect([now.connectedWallets, before.connectedWallets]).toEqual([2, 1]);
    expect([now.totalTransactions, before.totalTransactions]).toEqual([3, 1]);
    expect([now.transactionFailRate, before.transactionFailRate]).toEqual([2 / 3, 0]);

    const users = async (previous: boolean) =>
      (
        (await ask(funnel, { ...WEEK, previous })).acquisitionFunnel as {
          steps: { key: string; users: number }[];
        }
      ).steps.find((step) => step.key === 'totalUsers')?.users;
    expect([await users(false), await users(true)]).toEqual([4, 3]);

    const sessions = async (previous: boolean) =>
      Object.fromEntries(
        (
          (await ask(attribution, { ...WEEK, previous })).attribution as {
            rows: { kind: string; value: string | null; sessions: number }[];
          }
        ).rows.map((row) => [row.kind === 'value' ? row.value : row.kind, row.sessions]),
      );
    expect(await sessions(false)).toMatchObject({ total: 4, twitter: 2, newsletter: 1, unattributed: 1 });
    expect(await sessions(true)).toMatchObject({ total: 3, twitter: 1, newsletter: 2, unattributed: 0 });

    const occurrences = async (range: { from: string; to: string }) =>
      ((await ask(incidents, range)).incidents as { rows: { title: string; occurrences: number }[] }).rows
        .map((row) => row.occurrences)
        .sort((a, b) => b - a);
    expect(await occurrences(WEEK)).toEqual([3, 1]);
    expect(await occurrences({ from: before.from, to: before.to })).toEqual([1]);
  });

  it('is HTML too: tables and inline styles, dark on white, nothing loaded from elsewhere, user text escaped', () => {
    const html = email.html ?? '';
    expect(html).toContain('<table role="presentation"');
    expect(html).toContain('background:#ffffff');
    expect(html).not.toMatch(/<(img|link|script|style)\b/i);
    expect(html).not.toMatch(/url\(/i);
    expect(html).toContain('Swap &#60;dapp&#62; &#38; co');
    expect(html).not.toContain('<dapp>');
    for (const figure of ['>4<', '>2<', '>3<', '>66.7%<', '▲ 66.7 pp', '▼ 50%'])
      expect(html).toContain(figure);
    expect(html).toContain(`http://polyflow.test/console/${projectId}/analytics`);
  });

  it('carries its unsubscribe link in the text and in List-Unsubscribe', () => {
    const link = /Turn them off: (\S+)/.exec(email.text)?.[1];
    expect(link).toMatch(/^http:\/\/polyflow\.test\/api\/v1\/reports\/unsubscribe\?token=r1\./);
    expect(email.headers['list-unsubscribe']).toBe(`<${link}>`);
  });
});
