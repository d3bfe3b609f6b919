import { beforeAll, describe, expect, it } from 'vitest';
import { blankRow, type EventRow } from '../../src/modules/event-store/event-row.ts';
import type { GoalMatch } from '../../src/modules/event-store/goal-questions.ts';
import { storeRows } from '../support/event-stores.ts';
import { useTestApp } from '../support/harness.ts';
import { seed } from '../support/seed.ts';

/**
 * The goal column of the attribution table read from the attribution table's per-session rows (ADR 094),
 * on the engine EVENT_STORE names (both in the full run): a session the range cuts through counts only
 * its events in the range (its landing value, its filters, its conversion), a session across midnight
 * UTC is one session, a value without a converting session still has its row, two browsers identified
 * as one account convert once, and a replayed load changes nothing. docs/goals.md#in-the-attribution-table.
 */
const at = (iso: string) => Date.parse(iso);
let counter = 0;
function row(
  projectId: string,
  iso: string,
  user: string,
  session: string,
  type: string,
  extra: Partial<EventRow> = {},
): EventRow {
  const ts = at(iso);
  return {
    ...blankRow({
      project_id: projectId,
      id: `gs_${(counter++).toString().padStart(5, '0')}`,
      type,
      ts,
      received_at: ts + 10,
      user_id: user,
      session_id: session,
      origin: 'app.example.com',
    }),
    ...extra,
  } as EventRow;
}

/** Around [Mar 1 06:00, Mar 3 09:00) UTC. */
function fixture(p: string): EventRow[] {
  const signup = (iso: string, user: string, session: string, extra: Partial<EventRow>) =>
    row(p, iso, user, session, 'custom', { event_name: 'signup', ...extra });
  const view = (iso: string, user: string, session: string, extra: Partial<EventRow>) =>
    row(p, iso, user, session, 'page_view', { path: '/', ...extra });
  return [
    // Cut by the start: before it, campaign "early" from DE; in the range, "late" (not DE) and a signup.
    view('2024-03-01T05:00:00Z', 'a', 'a-s', { utm_campaign: 'early', country: 'DE' }),
    signup('2024-03-01T06:30:00Z', 'a', 'a-s', { utm_campaign: 'late' }),
    // Across midnight UTC: its signup is on the second day.
    view('2024-03-01T23:30:00Z', 'b', 'b-s', { utm_campaign: 'mid' }),
    signup('2024-03-02T00:30:00Z', 'b', 'b-s', { utm_campaign: 'mid' }),
    // No conversion.
    view('2024-03-02T10:00:00Z', 'c', 'c-s', { utm_campaign: 'quiet' }),
    // Cut by the end: in the range from DE; its signup falls after it.
    view('2024-03-03T08:00:00Z', 'd', 'd-s', { utm_campaign: 'end', country: 'DE' }),
    signup('2024-03-03T10:00:00Z', 'd', 'd-s', { utm_campaign: 'end' }),
    // Two browsers of one account, both converting with "mid".
    signup('2024-03-02T13:00:00Z', 'f1', 'f1-s', { utm_campaign: 'mid' }),
    row(p, '2024-03-02T13:01:00Z', 'f1', 'f1-s', 'identify', { app_user_id: 'acct-9' }),
    signup('2024-03-02T14:00:00Z', 'f2', 'f2-s', { utm_campaign: 'mid' }),
    row(p, '2024-03-02T14:01:00Z', 'f2', 'f2-s', 'identify', { app_user_id: 'acct-9' }),
  ];
}

const SIGNUP: GoalMatch = { kind: 'event', eventName: 'signup', propertyKey: null, propertyValue: null };
const RANGE = { fromMs: at('2024-03-01T06:00:00Z'), toMs: at('2024-03-03T09:00:00Z') };
type Count = { isTotal: boolean; value: string | null; conversions: number };
const sorted = (rows: Count[]) =>
  [...rows].sort(
    (x, y) => Number(y.isTotal) - Number(x.isTotal) || (x.value ?? '~').localeCompare(y.value ?? '~'),
  );

const test = useTestApp('sqlite');
let projectId = '';
beforeAll(async () => {
  const { project } = await seed(test.services).user().verified().project('Goal sessions');
  projectId = project.id;
  const rows = fixture(projectId);
  await storeRows(test.services.eventStore, rows);
  // A replay: the same events (same ids) loaded again, in a load of their own.
  await storeRows(test.services.eventStore, rows.slice(0, 5));
});

describe('the goal column over the attribution sessions (ADR 094)', () => {
  it("counts a cut session's events in the range only, and a session across midnight once", async () => {
    const rows = await test.services.eventStore.goalAttribution(projectId, RANGE, 'campaign', SIGNUP, {});
    expect(sorted(rows)).toEqual([
      { isTotal: true, value: null, conversions: 3 }, // a, b, acct-9
      { isTotal: false, value: 'end', conversions: 0 },
      { isTotal: false, value: 'late', conversions: 1 }, // a: not "early", which is before the range
      { isTotal: false, value: 'mid', conversions: 2 }, // b, acct-9 (two browsers, one user)
      { isTotal: false, value: 'quiet', conversions: 0 },
    ]);
  });

  it('filters a cut session by its events in the range', async () => {
    const rows = await test.services.eventStore.goalAttribution(projectId, RANGE, 'campaign', SIGNUP, {
      countries: ['DE'],
    });
    // a's DE event is before the range; d is from DE in it, and its signup comes after it.
    expect(sorted(rows)).toEqual([
      { isTotal: true, value: null, conversions: 0 },
      { isTotal: false, value: 'end', conversions: 0 },
    ]);
  });
});
