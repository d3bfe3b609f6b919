import { pathPatternRegex } from '@polyflow/contracts/path-pattern';
import { beforeAll, describe, expect, it } from 'vitest';
import { blankRow, type EventRow } from '../../src/modules/event-store/event-row.ts';
import type { GoalMatch } from '../../src/modules/event-store/goal-questions.ts';
import { storeRows } from '../support/event-stores.ts';
import { useTestApp } from '../support/harness.ts';
import { seed } from '../support/seed.ts';

/**
 * What the goals' and the custom funnel's reads could get wrong when they read less (ADR 085), on the
 * engine EVENT_STORE names (both in the full run): a range that does not start or end at midnight UTC
 * (a zone's local days: the whole days come from `user_days`, the pieces at the ends from the events),
 * an event stored twice (ClickHouse reads without FINAL), and a forgotten wallet (the per-day rows follow
 * the delete). Definitions: docs/goals.md#conversions, docs/funnels.md#the-question.
 */
const H = 3_600_000;
const at = (iso: string) => Date.parse(iso);
let counter = 0;
function row(projectId: string, iso: string, user: string, type: string, extra: Partial<EventRow> = {}) {
  const ts = at(iso);
  return {
    ...blankRow({
      project_id: projectId,
      id: `ge_${(counter++).toString().padStart(5, '0')}`,
      type,
      ts,
      received_at: ts + 10,
      user_id: user,
      session_id: `${user}-s`,
      origin: 'app.example.com',
    }),
    ...extra,
  } as EventRow;
}
const view = (p: string, iso: string, user: string, path: string, extra: Partial<EventRow> = {}) =>
  row(p, iso, user, 'page_view', { path, ...extra });
const custom = (p: string, iso: string, user: string, name: string) =>
  row(p, iso, user, 'custom', { event_name: name });

const WALLET = '0x00000000000000000000000000000000000000aa';

/** Around [Mar 1 06:00, Mar 3 09:00) UTC: users in and out of the pieces of days at both ends. */
function fixture(p: string): EventRow[] {
  return [
    // u_out_before: only before the range, on its first (partial) UTC day.
    view(p, '2024-03-01T05:00:00Z', 'u_out_before', '/pricing'),
    custom(p, '2024-03-01T05:30:00Z', 'u_out_before', 'signup'),
    // u_first: in the first day's piece.
    view(p, '2024-03-01T07:00:00Z', 'u_first', '/pricing'),
    // u_middle: a whole day.
    view(p, '2024-03-02T12:00:00Z', 'u_middle', '/docs/a'),
    custom(p, '2024-03-02T12:05:00Z', 'u_middle', 'signup'),
    // u_last: in the last day's piece; its signup falls after the range.
    view(p, '2024-03-03T08:00:00Z', 'u_last', '/docs'),
    custom(p, '2024-03-03T09:00:00Z', 'u_last', 'signup'),
    // u_out_after: only after the range, on its last (partial) UTC day.
    view(p, '2024-03-03T10:00:00Z', 'u_out_after', '/pricing'),
    // u_wallet: every event carries the wallet that is forgotten below.
    view(p, '2024-03-02T15:00:00Z', 'u_wallet', '/pricing', { wallet_address: WALLET }),
    custom(p, '2024-03-02T15:01:00Z', 'u_wallet', 'signup'),
    row(p, '2024-03-02T15:02:00Z', 'u_wallet', 'wallet_connected', { wallet_address: WALLET }),
  ].map((event) => (event.user_id === 'u_wallet' ? { ...event, wallet_address: WALLET } : event));
}

const GOALS: GoalMatch[] = [
  { kind: 'event', eventName: 'signup', propertyKey: null, propertyValue: null },
  { kind: 'path', pathRegex: pathPatternRegex('/pricing') },
  { kind: 'path', pathRegex: pathPatternRegex('/docs/**') },
];
const RANGE = { fromMs: at('2024-03-01T06:00:00Z'), toMs: at('2024-03-03T09:00:00Z') };
/** Asia/Kolkata's Mar 2 (UTC+05:30): [Mar 1 18:30, Mar 2 18:30) UTC. */
const KOLKATA_DAY = { fromMs: at('2024-03-01T18:30:00Z'), toMs: at('2024-03-02T18:30:00Z') };
const FUNNEL = {
  steps: [{ kind: 'page', path: '/**' } as const, { kind: 'event', name: 'signup' } as const],
  windowMs: 2 * H,
};

const test = useTestApp('sqlite');
let projectId = '';
beforeAll(async () => {
  const { project } = await seed(test.services).user().verified().project('Edges');
  projectId = project.id;
  const rows = fixture(projectId);
  await storeRows(test.services.eventStore, rows);
  // A replay: the same events (same ids) loaded again, in a load of their own.
  await storeRows(test.services.eventStore, rows.slice(0, 6));
});

describe('goal conversions and the custom funnel at the range edges (ADR 085)', () => {
  it('counts the users and conversions of the pieces of days at both ends, and not those beside them', async () => {
    const answer = await test.services.eventStore.goalConversions(projectId, RANGE, GOALS);
    // u_first, u_middle, u_last, u_wallet; u_last's signup is after the range.
    expect(answer).toEqual({ users: 4, conversions: [2, 2, 2] });
  });

  it("answers a zone's local day, a range of two pieces without a whole UTC day", async () => {
    const answer = await test.services.eventStore.goalConversions(projectId, KOLKATA_DAY, GOALS);
    // u_middle and u_wallet (Mar 2 12:00 and 15:00 UTC); u_first is at Mar 1 07:00 UTC.
    expect(answer).toEqual({ users: 2, conversions: [2, 1, 1] });
  });

  it("starts the funnel's attempts in the range only, and finishes them within the window after it", async () => {
    const [total] = await test.services.eventStore.customFunnel(projectId, RANGE, FUNNEL, null);
    // u_first (no signup), u_middle, u_last (signup at 09:00, the range's end, within 2 h), u_wallet.
    expect(total?.reached).toEqual([4, 3]);
  });

  it('forgets a wallet: its user leaves every figure', async () => {
    await test.services.eventStore.deleteWalletEvents(projectId, WALLET);
    expect(await test.services.eventStore.goalConversions(projectId, RANGE, GOALS)).toEqual({
      users: 3,
      conversions: [1, 1, 2],
    });
    const [total] = await test.services.eventStore.customFunnel(projectId, RANGE, FUNNEL, null);
    expect(total?.reached).toEqual([3, 2]);
  });
});
