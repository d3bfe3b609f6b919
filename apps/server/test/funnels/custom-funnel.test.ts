import type { CreateFunnel } from '@polyflow/contracts/funnels';
import { beforeAll, describe, expect, it } from 'vitest';
import { blankRow, type EventRow } from '../../src/modules/event-store/event-row.ts';
import { dataOf, errorOf, graphqlClient } from '../analytics/graphql-client.ts';
import { apiClient } from '../support/client.ts';
import { storeRows } from '../support/event-stores.ts';
import { useTestApp } from '../support/harness.ts';
import { seed } from '../support/seed.ts';

/**
 * docs/funnels.md, by hand, on the engine EVENT_STORE names (both: the server and server-clickhouse
 * projects). Range [Mar 1, Mar 2) 2024 UTC. Each user's story is told where its rows are.
 */
let counter = 0;
function row(p: string, at: string, user: string, type: string, extra: Partial<EventRow> = {}): EventRow {
  const ts = Date.parse(at);
  return {
    ...blankRow({
      project_id: p,
      id: `fn_${(counter++).toString().padStart(5, '0')}`,
      type,
      ts,
      received_at: ts + 100,
      user_id: user,
      session_id: `${user}-s`,
      origin: 'app.example.com',
    }),
    ...extra,
  };
}
const page = (p: string, at: string, user: string, path: string, source: string | null = null) =>
  row(p, at, user, 'page_view', { path, utm_source: source });
const custom = (p: string, at: string, user: string, name: string, props?: object) =>
  row(p, at, user, 'custom', { event_name: name, props: props ? JSON.stringify(props) : null });
const swap = (p: string, at: string, user: string, pair = 'ETH/USDC') =>
  custom(p, at, user, 'swap', { pair });
const tx = (p: string, at: string, user: string, stage: string) =>
  row(p, at, user, 'tx', { tx_stage: stage, tx_id: `${user}-tx`, tx_kind: 'contract' });
const identify = (p: string, at: string, user: string, appUserId: string) =>
  row(p, at, user, 'identify', { app_user_id: appUserId });

const D = '2024-03-01T';
/** A millisecond of the range whose lowest byte is 0xff: the next one carries into the byte above. */
const CARRY = Date.parse(`${D}10:00:00Z`) - (Date.parse(`${D}10:00:00Z`) % 256) + 255;
const land = (p: string, ts: number, user: string, source: string) =>
  row(p, new Date(ts).toISOString(), user, 'custom', { event_name: 'land', utm_source: source });
function fixture(p: string): EventRow[] {
  return [
    // a1: the three steps in order: 3. Landed from twitter.
    page(p, `${D}10:00:00Z`, 'a1', '/pricing/pro', 'twitter'),
    swap(p, `${D}10:10:00Z`, 'a1'),
    tx(p, `${D}10:20:00Z`, 'a1', 'confirmed'),
    // a2: its swap ties with step 1 (same ms), so it is not after it: 1.
    page(p, `${D}10:00:00Z`, 'a2', '/pricing/pro'),
    swap(p, `${D}10:00:00Z`, 'a2'),
    tx(p, `${D}10:30:00Z`, 'a2', 'confirmed'),
    // a3: a trailing slash matches; the confirmation comes 1 ms after the hour: 2.
    page(p, `${D}11:00:00Z`, 'a3', '/pricing/basic/'),
    swap(p, `${D}11:30:00Z`, 'a3'),
    tx(p, `${D}12:00:00.001Z`, 'a3', 'confirmed'),
    // a4: the confirmation exactly one hour after step 1 is within the window: 3.
    page(p, `${D}13:00:00Z`, 'a4', '/pricing/pro'),
    swap(p, `${D}13:30:00Z`, 'a4'),
    tx(p, `${D}14:00:00Z`, 'a4', 'confirmed'),
    // a5: repeats. From 09:00 the first swap after it (09:50) leads to a confirmation past the window; from
    // the second step 1 (09:55) all three fit: 3, counted once. Its first step 1 landed from google.
    page(p, `${D}09:00:00Z`, 'a5', '/pricing/pro', 'google'),
    swap(p, `${D}09:50:00Z`, 'a5'),
    page(p, `${D}09:55:00Z`, 'a5', '/pricing/team', 'twitter'),
    swap(p, `${D}10:00:00Z`, 'a5'),
    tx(p, `${D}10:05:00Z`, 'a5', 'confirmed'),
    // a6: a swap of another pair is not step 2: 1.
    page(p, `${D}10:00:00Z`, 'a6', '/pricing/pro'),
    swap(p, `${D}10:05:00Z`, 'a6', 'WBTC/ETH'),
    // a7: /pricing itself is not /pricing/*, and a submitted stage is not confirmed: not in the funnel.
    page(p, `${D}10:00:00Z`, 'a7', '/pricing'),
    swap(p, `${D}10:05:00Z`, 'a7'),
    tx(p, `${D}10:06:00Z`, 'a7', 'submitted'),
    // a8: step 1 before the range: not in the funnel, whatever follows in it.
    page(p, '2024-02-29T23:50:00Z', 'a8', '/pricing/pro'),
    swap(p, `${D}00:05:00Z`, 'a8'),
    tx(p, `${D}00:10:00Z`, 'a8', 'confirmed'),
    // a9: step 1 late in the range, the others after its end but within the window: 3.
    page(p, `${D}23:30:00Z`, 'a9', '/pricing/pro'),
    swap(p, '2024-03-02T00:10:00Z', 'a9'),
    tx(p, '2024-03-02T00:20:00Z', 'a9', 'confirmed'),
    // a10 and a11 both identify as acct-x: one user with the three steps across two browsers: 3.
    identify(p, `${D}14:50:00Z`, 'a10', 'acct-x'),
    page(p, `${D}15:00:00Z`, 'a10', '/pricing/pro'),
    identify(p, `${D}18:00:00Z`, 'a11', 'acct-x'),
    swap(p, `${D}15:10:00Z`, 'a11'),
    tx(p, `${D}15:20:00Z`, 'a11', 'confirmed'),
    // a12: the confirmation ties with the swap: 2.
    page(p, `${D}16:00:00Z`, 'a12', '/pricing/pro'),
    swap(p, `${D}16:10:00Z`, 'a12'),
    tx(p, `${D}16:10:00Z`, 'a12', 'confirmed'),

    // b1 connects then submits; b2 only connects.
    row(p, `${D}10:00:00Z`, 'b1', 'wallet_connected'),
    tx(p, `${D}10:05:00Z`, 'b1', 'submitted'),
    row(p, `${D}11:00:00Z`, 'b2', 'wallet_connected'),

    // c1: /docs alone (`**` is also no segment): 1. c2: two docs pages in the same ms: 1. c3: two: 2.
    page(p, `${D}10:00:00Z`, 'c1', '/docs'),
    page(p, `${D}10:00:00Z`, 'c2', '/docs/a'),
    page(p, `${D}10:00:00Z`, 'c2', '/docs/b'),
    page(p, `${D}10:00:00Z`, 'c3', '/docs/a/b'),
    page(p, `${D}10:01:00Z`, 'c3', '/docs'),

    // The split's first start is the first by time, then event id (ids follow the order written here). f1:
    // its later start has the smaller id; the two times differ in the lowest byte across a carry (…ff,
    // …00), so a key that compared the time's bytes little end first would pick the later: "earlier".
    // f2: two starts in one millisecond, the smaller id first: "tie-first". f3a and f3b, one app user:
    // f3b's start ties with f3a's and has the smaller id: "tie-b".
    land(p, CARRY + 1, 'f1', 'later'),
    land(p, CARRY, 'f1', 'earlier'),
    land(p, CARRY, 'f2', 'tie-first'),
    land(p, CARRY, 'f2', 'tie-second'),
    land(p, CARRY, 'f3b', 'tie-b'),
    land(p, CARRY, 'f3a', 'tie-a'),
    identify(p, `${D}09:00:00Z`, 'f3a', 'acct-f3'),
    identify(p, `${D}09:00:00Z`, 'f3b', 'acct-f3'),
    // Stored values are trimmed (blank: none) on the first start's: f4 landed with ' earlier ' ("earlier"),
    // f5 with blanks (Unattributed); f6's two starts in one millisecond are 'tie-b ' and 'tie-b': "tie-b".
    land(p, CARRY, 'f4', ' earlier '),
    land(p, CARRY, 'f5', '   '),
    land(p, CARRY, 'f6', 'tie-b '),
    land(p, CARRY, 'f6', 'tie-b'),

    // Eight steps e1 … e8 over 30 days. d1: all of them: 8. d2: skips e6: 5. d3: e8 one second past
    // the 30 days: 7.
    ...['d1', 'd2', 'd3'].flatMap((user) =>
      [1, 2, 3, 4, 5, 6, 7, 8]
        .filter((step) => !(user === 'd2' && step === 6))
        .map((step) => {
          const at =
            user === 'd3' && step === 8
              ? Date.parse(`${D}12:00:00Z`) + 30 * 86_400_000 + 1000
              : Date.parse(`${D}12:00:00Z`) + (step - 1) * 86_400_000;
          return custom(p, new Date(at).toISOString(), user, `e${step}`);
        }),
    ),
  ];
}

const FUNNELS: Record<string, CreateFunnel> = {
  pricing: {
    name: 'Pricing to swap',
    windowHours: 1,
    steps: [
      { kind: 'page', path: '/pricing/*' },
      { kind: 'event', name: 'swap', property: { key: 'pair', value: 'ETH/USDC' } },
      { kind: 'transaction', stage: 'confirmed' },
    ],
  },
  wallet: {
    name: 'Connect and submit',
    windowHours: 24,
    steps: [{ kind: 'wallet_connected' }, { kind: 'transaction', stage: 'submitted' }],
  },
  docs: {
    name: 'Two docs pages',
    windowHours: 1,
    steps: [
      { kind: 'page', path: '/docs/**' },
      { kind: 'page', path: '/docs/**' },
    ],
  },
  first: {
    name: 'Landed twice',
    windowHours: 1,
    steps: [
      { kind: 'event', name: 'land' },
      { kind: 'event', name: 'land-2' },
    ],
  },
  eight: {
    name: 'Eight events',
    windowHours: 720,
    steps: [1, 2, 3, 4, 5, 6, 7, 8].map((step) => ({ kind: 'event' as const, name: `e${step}` })),
  },
};

const test = useTestApp('sqlite');
const world = {} as {
  main: string;
  gql: ReturnType<typeof graphqlClient>;
  token: string;
  strangerToken: string;
  ids: Record<string, string>;
  otherIds: Record<string, string>;
};

beforeAll(async () => {
  const { user, project } = await seed(test.services).user().verified().project('Main');
  const { user: stranger, project: other } = await seed(test.services).user().verified().project('Other');
  await storeRows(test.services.eventStore, [...fixture(project.id), ...fixture(other.id)]);
  const api = apiClient(test.app);
  const save = async (projectId: string, token: string) => {
    const ids: Record<string, string> = {};
    for (const [key, body] of Object.entries(FUNNELS)) {
      const response = await api.post(`projects/${projectId}/funnels`, { token, body });
      expect(response.statusCode, response.body).toBe(201);
      ids[key] = response.json().id;
    }
    return ids;
  };
  Object.assign(world, {
    main: project.id,
    gql: graphqlClient(test.app),
    token: user.token,
    strangerToken: stranger.token,
    ids: await save(project.id, user.token),
    otherIds: await save(other.id, stranger.token),
  });
});

const RESULT = `query ($projectId: ID!, $funnelId: ID!, $from: DateTime, $to: DateTime, $split: AttributionDimension) {
  customFunnel(projectId: $projectId, funnelId: $funnelId, from: $from, to: $to, split: $split) {
    name windowHours from to split
    steps { index label users conversion stepConversion dropOff }
    splitRows { value users conversion } } }`;

const ask = (funnelId: string, variables: Record<string, unknown> = {}, token = world.token) =>
  world.gql(
    RESULT,
    { projectId: world.main, funnelId, from: '2024-03-01', to: '2024-03-02', ...variables },
    { token },
  );
type Result = {
  steps: {
    index: number;
    label: string;
    users: number;
    conversion: number;
    stepConversion: number;
    dropOff: number;
  }[];
  splitRows: { value: string | null; users: number[]; conversion: number }[];
};
const result = async (funnel: string, variables: Record<string, unknown> = {}) =>
  dataOf(await ask(world.ids[funnel] ?? '', variables)).customFunnel as Result;
const users = async (funnel: string) => (await result(funnel)).steps.map((step) => step.users);

describe('customFunnel', () => {
  it('counts users through steps in order within the window: ties, repeats, late steps, identify', async () => {
    const answer = await result('pricing');
    expect(answer.steps).toEqual([
      { index: 1, label: 'Page /pricing/*', users: 9, conversion: 1, stepConversion: 1, dropOff: 0 },
      {
        index: 2,
        label: 'Event swap (pair = ETH/USDC)',
        users: 7,
        conversion: 7 / 9,
        stepConversion: 7 / 9,
        dropOff: 2,
      },
      {
        index: 3,
        label: 'Transaction confirmed',
        users: 5,
        conversion: 5 / 9,
        stepConversion: 5 / 7,
        dropOff: 2,
      },
    ]);
    expect(answer.splitRows).toEqual([]);
  });

  it('splits by the landing attribution of the first step 1 in the range', async () => {
    const answer = await result('pricing', { split: 'source' });
    expect(answer.splitRows).toEqual([
      { value: null, users: [7, 5, 3], conversion: 3 / 7 },
      { value: 'google', users: [1, 1, 1], conversion: 1 },
      { value: 'twitter', users: [1, 1, 1], conversion: 1 },
    ]);
    // The split leaves the totals as they are.
    expect(answer.steps.map((step) => step.users)).toEqual([9, 7, 5]);
  });

  it('splits by the first step 1 by time, then event id, across the browsers of one app user, trimmed', async () => {
    const answer = await result('first', { split: 'source' });
    expect(answer.splitRows).toEqual([
      { value: 'earlier', users: [2, 0], conversion: 0 },
      { value: 'tie-b', users: [2, 0], conversion: 0 },
      { value: 'tie-first', users: [1, 0], conversion: 0 },
      { value: null, users: [1, 0], conversion: 0 },
    ]);
  });

  it('answers 2 steps: a wallet connection, then a submitted transaction', async () => {
    expect(await users('wallet')).toEqual([2, 1]);
  });

  it('never lets one event be two steps, even at the same millisecond', async () => {
    expect(await users('docs')).toEqual([3, 1]);
  });

  it('answers 8 steps over a 30-day window, a step one second beyond it not counted', async () => {
    expect(await users('eight')).toEqual([3, 3, 3, 3, 3, 2, 2, 1]);
  });

  it('answers over the widest range a caller can name (a8 enters: its step 1 is in it)', async () => {
    const answer = await result('pricing', { from: '1970-01-01T00:00:00Z', to: '9999-12-31T23:59:59.999Z' });
    expect(answer.steps.map((step) => step.users)).toEqual([10, 8, 6]);
  });

  it('answers zeros for a range without step 1', async () => {
    const answer = await result('pricing', { from: '2023-01-01', to: '2023-01-02' });
    expect(answer.steps.map((step) => [step.users, step.conversion, step.dropOff])).toEqual([
      [0, 0, 0],
      [0, 0, 0],
      [0, 0, 0],
    ]);
  });

  it("keeps other users' funnels and projects absent; refuses a bad split", async () => {
    expect(errorOf(await ask(world.otherIds.pricing ?? '')).code).toBe('NOT_FOUND');
    expect(errorOf(await ask(world.ids.pricing ?? '', {}, world.strangerToken)).code).toBe('NOT_FOUND');
    expect(errorOf(await ask('not-an-id')).code).toBe('NOT_FOUND');
    const bad = await ask(world.ids.pricing ?? '', { split: 'country' });
    expect(bad.errors?.[0]).toBeDefined();
    const range = await ask(world.ids.pricing ?? '', { from: '2024-03-02', to: '2024-03-01' });
    expect(errorOf(range).code).toBe('BAD_USER_INPUT');
  });
});
