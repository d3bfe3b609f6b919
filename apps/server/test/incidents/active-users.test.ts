import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { blankRow, type EventRow } from '../../src/modules/event-store/event-row.ts';
import type { EventStore } from '../../src/modules/event-store/event-store.ts';
import type { IncidentSpan } from '../../src/modules/event-store/incident-questions.ts';
import { chosenEventStore, storeRows } from '../support/event-stores.ts';

// An incident's reach is over the users active during its life (its UTC days, both ends included). Each
// user below is active on days of their own pattern, with gaps; the expected counts are computed here from
// those rows, not by the store. Few distinct lives and many take different paths in the DuckDB adapter.
const PROJECT = 'active-users-project';
const OTHER = 'active-users-other';
const DAY_MS = 86_400_000;
const START = Date.UTC(2024, 2, 1);
const DAYS = 30;
const USERS = 40;

/** User k is active on day d when (d + k) % (k % 7 + 2) === 0, and never before day k % 5 nor after DAYS - k % 4. */
const isActive = (user: number, day: number) =>
  (day + user) % ((user % 7) + 2) === 0 && day >= user % 5 && day < DAYS - (user % 4);

function rowsOf(projectId: string): EventRow[] {
  const rows: EventRow[] = [];
  for (let user = 0; user < USERS; user++) {
    for (let day = 0; day < DAYS; day++) {
      if (!isActive(user, day)) continue;
      // Two events a day at different hours: a user counts once, whatever the number of events.
      for (const hour of [1, 23]) {
        const ts = START + day * DAY_MS + hour * 3_600_000;
        rows.push(
          blankRow({
            project_id: projectId,
            id: `${projectId}-${user}-${day}-${hour}`,
            type: 'page_view',
            ts,
            received_at: ts + 50,
            user_id: `user-${user}`,
            session_id: `${projectId}-${user}-${day}`,
            origin: 'app.example.com',
          }),
        );
      }
    }
  }
  return rows;
}

/** A life from the first to the last day given, at hours inside those days. */
const span = (incidentId: string, firstDay: number, lastDay: number): IncidentSpan => ({
  incidentId,
  firstSeenMs: START + firstDay * DAY_MS + 5 * 3_600_000,
  lastSeenMs: START + lastDay * DAY_MS + 20 * 3_600_000,
});

function expected(spans: readonly IncidentSpan[]): Map<string, number> {
  const dayOf = (ms: number) => Math.floor((ms - START) / DAY_MS);
  return new Map(
    spans.map((s) => {
      let users = 0;
      for (let user = 0; user < USERS; user++) {
        let active = false;
        for (let day = dayOf(s.firstSeenMs); day <= dayOf(s.lastSeenMs); day++)
          active ||= isActive(user, day);
        if (active) users++;
      }
      return [s.incidentId, users];
    }),
  );
}

let dataDir: string;
let store: EventStore;

beforeAll(async () => {
  dataDir = mkdtempSync(path.join(os.tmpdir(), 'polyflow-active-users-'));
  store = await chosenEventStore()({ dataDir });
  // The other project's users are active every day: none of them may count.
  await storeRows(store, [
    ...rowsOf(PROJECT),
    ...rowsOf(OTHER).map((row) => ({ ...row, user_id: `other-${row.user_id}` })),
  ]);
});

afterAll(async () => {
  await store?.close();
  rmSync(dataDir, { recursive: true, force: true });
});

describe('activeUsersDuring (the denominator of an incident reach)', () => {
  it('counts each user once per life, over the days of the life only', async () => {
    const spans = [span('a', 0, 29), span('b', 3, 3), span('c', 10, 12), span('d', 10, 12)];
    const answer = await store.activeUsersDuring(PROJECT, spans);
    expect(answer).toEqual(expected(spans));
    // Not every user on every life: the patterns leave gaps, or the check would prove little.
    expect(answer.get('b')).toBeLessThan(answer.get('a') ?? 0);
  });

  it('gives the same counts for many distinct lives, short and long, including ones in nobody’s active days', async () => {
    const spans: IncidentSpan[] = [];
    for (let first = 0; first < DAYS; first += 3)
      for (const length of [0, 1, 4, 13])
        spans.push(span(`s${first}-${length}`, first, Math.min(first + length, DAYS - 1)));
    spans.push(span('before-anyone', -10, -5), span('after-everyone', DAYS + 2, DAYS + 4));
    expect(spans.length).toBeGreaterThan(20);
    const answer = await store.activeUsersDuring(PROJECT, spans);
    expect(answer).toEqual(expected(spans));
    expect(answer.get('before-anyone')).toBe(0);
    expect(answer.get('after-everyone')).toBe(0);
  });

  it('answers an empty map for no incidents', async () => {
    expect(await store.activeUsersDuring(PROJECT, [])).toEqual(new Map());
  });
});
