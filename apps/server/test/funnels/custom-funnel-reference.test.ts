import type { CreateFunnel, FunnelStep } from '@polyflow/contracts/funnels';
import { matchesPathPattern } from '@polyflow/contracts/path-pattern';
import { beforeAll, describe, expect, it } from 'vitest';
import { blankRow, type EventRow } from '../../src/modules/event-store/event-row.ts';
import { dataOf, graphqlClient } from '../analytics/graphql-client.ts';
import { apiClient } from '../support/client.ts';
import { storeRows } from '../support/event-stores.ts';
import { useTestApp } from '../support/harness.ts';
import { seed } from '../support/seed.ts';

/**
 * docs/funnels.md's definition written as plain code, against the engine EVENT_STORE names on a few
 * thousand generated events (times on whole minutes, so many tie; users who never reach a step; identifies
 * merging browsers). The hand-made cases (custom-funnel.test.ts) say why; this one says the engine agrees
 * on many more shapes than a person writes by hand.
 */
const FROM = Date.UTC(2024, 4, 1);
const TO = Date.UTC(2024, 4, 3);
let seedValue = 29;
const random = () => {
  seedValue = (seedValue * 1_103_515_245 + 12_345) % 2 ** 31;
  return seedValue / 2 ** 31;
};
const pick = <T>(items: readonly T[]): T => items[Math.floor(random() * items.length)] as T;

let counter = 0;
function generate(p: string): EventRow[] {
  const rows: EventRow[] = [];
  for (let user = 0; user < 160; user++) {
    const userId = `ref-${user}`;
    const count = Math.floor(random() * 24);
    const origin = FROM - 3 * 3_600_000 + Math.floor(random() * 50) * 3_600_000;
    const source = pick([null, 'google', 'twitter', ' ', 'news']);
    for (let index = 0; index < count; index++) {
      // Whole minutes within ~5 hours of the user's origin: ties between steps are common.
      const ts = origin + Math.floor(random() * 300) * 60_000;
      const kind = pick(['page', 'page', 'connect', 'swap', 'swap', 'tx', 'other']);
      const extra: Partial<EventRow> =
        kind === 'page'
          ? { type: 'page_view', path: pick(['/', '/pricing', '/pricing/pro', '/pricing/pro/', '/docs/a']) }
          : kind === 'connect'
            ? { type: 'wallet_connected' }
            : kind === 'swap'
              ? {
                  type: 'custom',
                  event_name: 'swap',
                  props: JSON.stringify({ pair: pick(['ETH/USDC', 'WBTC/ETH']) }),
                }
              : kind === 'tx'
                ? {
                    type: 'tx',
                    tx_stage: pick(['submitted', 'confirmed']),
                    tx_id: `${userId}-tx-${index}`,
                    tx_kind: 'coin',
                  }
                : { type: 'custom', event_name: 'other' };
      rows.push({
        ...blankRow({
          project_id: p,
          id: `fr_${(counter++).toString().padStart(6, '0')}`,
          type: extra.type ?? 'custom',
          ts,
          received_at: ts + 10,
          user_id: userId,
          session_id: `${userId}-s`,
          origin: 'app.example.com',
        }),
        utm_source: source,
        ...extra,
      });
    }
    // Every seventh user identifies as the app user of the user before it: two browsers, one person.
    if (user % 7 === 6) {
      rows.push({
        ...blankRow({
          project_id: p,
          id: `fr_${(counter++).toString().padStart(6, '0')}`,
          type: 'identify',
          ts: origin,
          received_at: origin,
          user_id: userId,
          session_id: `${userId}-s`,
          origin: 'app.example.com',
        }),
        app_user_id: `acct-${user - 1}`,
      });
      rows.push({
        ...blankRow({
          project_id: p,
          id: `fr_${(counter++).toString().padStart(6, '0')}`,
          type: 'identify',
          ts: origin,
          received_at: origin,
          user_id: `ref-${user - 1}`,
          session_id: `ref-${user - 1}-s`,
          origin: 'app.example.com',
        }),
        app_user_id: `acct-${user - 1}`,
      });
    }
  }
  return rows;
}

/** Whether an event is the step, as docs/funnels.md says. */
function isStep(row: EventRow, step: FunnelStep): boolean {
  switch (step.kind) {
    case 'page':
      return row.type === 'page_view' && matchesPathPattern(step.path, row.path ?? '');
    case 'event': {
      if (row.type !== 'custom' || row.event_name !== step.name) return false;
      if (!step.property) return true;
      const value = (JSON.parse(row.props ?? '{}') as Record<string, unknown>)[step.property.key];
      return (
        value !== undefined &&
        (typeof value === 'string' ? value : JSON.stringify(value)) === step.property.value
      );
    }
    case 'wallet_connected':
      return row.type === 'wallet_connected';
    case 'transaction':
      return row.type === 'tx' && row.tx_stage === step.stage;
  }
}

/** The answer by the definition: users per step, and per landing source of the first step 1. */
function expected(rows: EventRow[], funnel: CreateFunnel) {
  const latest = new Map<string, EventRow>();
  for (const row of rows.filter((r) => r.type === 'identify')) {
    const before = latest.get(row.user_id);
    if (!before || row.ts > before.ts || (row.ts === before.ts && row.id > before.id))
      latest.set(row.user_id, row);
  }
  const who = (row: EventRow) => {
    const app = latest.get(row.user_id)?.app_user_id;
    return app ? `app:${app}` : `sdk:${row.user_id}`;
  };
  const windowMs = funnel.windowHours * 3_600_000;
  const byUser = new Map<string, EventRow[]>();
  for (const row of rows) byUser.set(who(row), [...(byUser.get(who(row)) ?? []), row]);
  const totals = funnel.steps.map(() => 0);
  const split = new Map<string | null, number[]>();
  for (const events of byUser.values()) {
    const starts = events
      .filter((row) => row.ts >= FROM && row.ts < TO && isStep(row, funnel.steps[0] as FunnelStep))
      .sort((a, b) => a.ts - b.ts || a.id.localeCompare(b.id));
    if (starts.length === 0) continue;
    let best = 0;
    for (const start of starts) {
      let level = 1;
      let previous = start.ts;
      for (const step of funnel.steps.slice(1)) {
        const next = events
          .filter((row) => row.ts > previous && isStep(row, step))
          .reduce((min, row) => Math.min(min, row.ts), Number.POSITIVE_INFINITY);
        if (next > start.ts + windowMs) break;
        level++;
        previous = next;
      }
      best = Math.max(best, level);
    }
    const value = starts[0]?.utm_source?.trim() || null;
    const row = split.get(value) ?? funnel.steps.map(() => 0);
    for (let k = 0; k < best; k++) {
      totals[k] = (totals[k] ?? 0) + 1;
      row[k] = (row[k] ?? 0) + 1;
    }
    split.set(value, row);
  }
  return { totals, split };
}

const FUNNELS: CreateFunnel[] = [
  {
    name: 'Pricing, connect, swap, confirmed',
    windowHours: 2,
    steps: [
      { kind: 'page', path: '/pricing/*' },
      { kind: 'wallet_connected' },
      { kind: 'event', name: 'swap', property: { key: 'pair', value: 'ETH/USDC' } },
      { kind: 'transaction', stage: 'confirmed' },
    ],
  },
  {
    name: 'Swap thrice',
    windowHours: 1,
    steps: [
      { kind: 'event', name: 'swap' },
      { kind: 'event', name: 'swap' },
      { kind: 'event', name: 'swap' },
    ],
  },
  {
    name: 'Any page then any transaction',
    windowHours: 720,
    steps: [
      { kind: 'page', path: '/**' },
      { kind: 'transaction', stage: 'submitted' },
    ],
  },
];

const test = useTestApp('sqlite');
const world = {} as { rows: EventRow[]; projectId: string; token: string; ids: string[] };
beforeAll(async () => {
  const { user, project } = await seed(test.services).user().verified().project('Reference');
  const rows = generate(project.id);
  await storeRows(test.services.eventStore, rows);
  const ids: string[] = [];
  for (const body of FUNNELS) {
    const saved = await apiClient(test.app).post(`projects/${project.id}/funnels`, {
      token: user.token,
      body,
    });
    expect(saved.statusCode).toBe(201);
    ids.push(saved.json().id);
  }
  Object.assign(world, { rows, projectId: project.id, token: user.token, ids });
});

describe('customFunnel against the written definition', () => {
  it.each(FUNNELS.map((funnel, index) => [funnel.name, index] as const))('%s', async (_name, index) => {
    const funnel = FUNNELS[index] as CreateFunnel;
    const answer = dataOf(
      await graphqlClient(test.app)(
        `query ($p: ID!, $f: ID!, $from: DateTime, $to: DateTime) {
          customFunnel(projectId: $p, funnelId: $f, from: $from, to: $to, split: source) {
            steps { users } splitRows { value users } } }`,
        {
          p: world.projectId,
          f: world.ids[index],
          from: new Date(FROM).toISOString(),
          to: new Date(TO).toISOString(),
        },
        { token: world.token },
      ),
    ).customFunnel as { steps: { users: number }[]; splitRows: { value: string | null; users: number[] }[] };
    const { totals, split } = expected(world.rows, funnel);
    expect(totals[0], 'the generated data has users in the funnel').toBeGreaterThan(10);
    expect(totals.at(-1), 'and users at its last step').toBeGreaterThan(0);
    expect(answer.steps.map((step) => step.users)).toEqual(totals);
    expect(new Map(answer.splitRows.map((row) => [row.value, row.users]))).toEqual(split);
  });
});
