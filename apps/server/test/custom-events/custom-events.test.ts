import { beforeAll, describe, expect, it } from 'vitest';
import { blankRow, type EventRow } from '../../src/modules/event-store/event-row.ts';
import { dataOf, errorOf, graphqlClient } from '../analytics/graphql-client.ts';
import { storeRows } from '../support/event-stores.ts';
import { useTestApp } from '../support/harness.ts';
import { seed } from '../support/seed.ts';

/**
 * docs/custom-events.md, by hand. Range [Feb 1, Feb 3) 2024 UTC unless said. u1 and u2 identify as acct-1
 * (u1 after its swaps); u4 as acct-4 then acct-5 (the latest wins); an SDK user whose id is the text
 * "acct-1" stays its own user.
 */
let counter = 0;
function row(
  projectId: string,
  at: string,
  user: string,
  type: string,
  extra: Partial<EventRow> = {},
): EventRow {
  const ts = Date.parse(at);
  return {
    ...blankRow({
      project_id: projectId,
      id: `ce_${(counter++).toString().padStart(5, '0')}`,
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
const custom = (p: string, at: string, user: string, name: string, props?: object) =>
  row(p, at, user, 'custom', { event_name: name, props: props ? JSON.stringify(props) : null });
const identify = (p: string, at: string, user: string, appUserId: string) =>
  row(p, at, user, 'identify', { app_user_id: appUserId, props: JSON.stringify({ plan: 'pro' }) });

function fixture(p: string): EventRow[] {
  return [
    custom(p, '2024-02-01T10:00:00Z', 'u1', 'swap', { pair: 'ETH/USDC', amount: 1.5 }),
    custom(p, '2024-02-01T12:00:00Z', 'u1', 'swap', { pair: 'ETH/USDC' }),
    identify(p, '2024-02-01T13:00:00Z', 'u1', 'acct-1'),
    custom(p, '2024-02-02T09:00:00Z', 'u2', 'swap', { pair: 'WBTC/ETH', fast: true }),
    identify(p, '2024-02-02T09:30:00Z', 'u2', 'acct-1'),
    custom(p, '2024-02-02T23:30:00Z', 'u3', 'swap', {}),
    custom(p, '2024-02-02T10:00:00Z', 'u3', 'bridge', { route: 'op→arb' }),
    identify(p, '2024-02-01T00:00:00Z', 'u4', 'acct-4'),
    identify(p, '2024-02-03T00:00:00Z', 'u4', 'acct-5'),
    custom(p, '2024-02-02T11:00:00Z', 'u4', 'bridge'),
    custom(p, '2024-02-02T12:00:00Z', 'acct-1', 'bridge'),
    custom(p, '2024-01-31T10:00:00Z', 'u5', 'bridge'),
    // Not custom events: never counted.
    row(p, '2024-02-01T10:00:00Z', 'u1', 'page_view', { path: '/' }),
  ];
}

const test = useTestApp('sqlite');
const world = {} as {
  main: string;
  other: string;
  gql: ReturnType<typeof graphqlClient>;
  token: string;
  strangerToken: string;
};
beforeAll(async () => {
  const owner = seed(test.services).user().verified();
  const { user, project } = await owner.project('Main');
  const { user: stranger, project: other } = await seed(test.services).user().verified().project('Other');
  await storeRows(test.services.eventStore, [...fixture(project.id), ...fixture(other.id)]);
  Object.assign(world, {
    main: project.id,
    other: other.id,
    gql: graphqlClient(test.app),
    token: user.token,
    strangerToken: stranger.token,
  });
});

const ask = async (query: string, variables: Record<string, unknown>, token = world.token) =>
  world.gql(query, { projectId: world.main, from: '2024-02-01', to: '2024-02-03', ...variables }, { token });

const COUNTS = `query ($projectId: ID!, $from: DateTime, $to: DateTime, $previous: Boolean) {
  customEvents(projectId: $projectId, from: $from, to: $to, previous: $previous) { name events users } }`;
const BREAKDOWN = `query ($projectId: ID!, $from: DateTime, $to: DateTime, $name: String!, $key: String!) {
  customEventBreakdown(projectId: $projectId, from: $from, to: $to, name: $name, key: $key) { value events users } }`;
const SERIES = `query ($projectId: ID!, $from: DateTime, $to: DateTime, $name: String!, $timeZone: String) {
  customEventSeries(projectId: $projectId, from: $from, to: $to, name: $name, timeZone: $timeZone) { day events users } }`;

describe('customEvents', () => {
  it('counts events and users per name, identified users by the app id of their latest identify', async () => {
    expect(dataOf(await ask(COUNTS, {})).customEvents).toEqual([
      // u1 ×2 and u2 are acct-1; u3 is itself (its 23:30 swap is inside the UTC range).
      { name: 'swap', events: 4, users: 2 },
      // u3, u4 (acct-5, its latest), and the SDK user "acct-1" (not the app's acct-1).
      { name: 'bridge', events: 3, users: 3 },
    ]);
  });

  it('answers the period before with previous: true', async () => {
    expect(dataOf(await ask(COUNTS, { previous: true })).customEvents).toEqual([
      { name: 'bridge', events: 1, users: 1 },
    ]);
  });

  it("keeps other users' projects absent", async () => {
    const answer = await ask(COUNTS, {}, world.strangerToken);
    expect(errorOf(answer).code).toBe('NOT_FOUND');
  });
});

describe('customEventBreakdown', () => {
  it('splits by a property, events without it as null last among equals', async () => {
    expect(dataOf(await ask(BREAKDOWN, { name: 'swap', key: 'pair' })).customEventBreakdown).toEqual([
      { value: 'ETH/USDC', events: 2, users: 1 },
      { value: 'WBTC/ETH', events: 1, users: 1 },
      { value: null, events: 1, users: 1 },
    ]);
  });

  it('shows numbers and booleans as JSON writes them', async () => {
    expect(dataOf(await ask(BREAKDOWN, { name: 'swap', key: 'amount' })).customEventBreakdown).toEqual([
      { value: null, events: 3, users: 2 },
      { value: '1.5', events: 1, users: 1 },
    ]);
    expect(dataOf(await ask(BREAKDOWN, { name: 'swap', key: 'fast' })).customEventBreakdown).toEqual([
      { value: null, events: 3, users: 2 },
      { value: 'true', events: 1, users: 1 },
    ]);
  });

  it('refuses a key with a control character', async () => {
    const answer = await ask(BREAKDOWN, { name: 'swap', key: 'pa\u0000ir' });
    expect(errorOf(answer).code).toBe('BAD_USER_INPUT');
  });
});

describe('customEventSeries', () => {
  it('counts per UTC day by default, every day of the range', async () => {
    expect(dataOf(await ask(SERIES, { name: 'swap' })).customEventSeries).toEqual([
      { day: '2024-02-01', events: 2, users: 1 },
      { day: '2024-02-02', events: 2, users: 2 },
    ]);
  });

  it('counts per calendar day of the time zone asked', async () => {
    // [Feb 1 01:00, Feb 3 01:00) in Berlin: u3's swap at 23:30 UTC is Feb 3 00:30 there.
    expect(dataOf(await ask(SERIES, { name: 'swap', timeZone: 'Europe/Berlin' })).customEventSeries).toEqual([
      { day: '2024-02-01', events: 2, users: 1 },
      { day: '2024-02-02', events: 1, users: 1 },
      { day: '2024-02-03', events: 1, users: 1 },
    ]);
  });

  it('refuses an unknown time zone', async () => {
    const answer = await ask(SERIES, { name: 'swap', timeZone: 'Mars/Base' });
    expect(errorOf(answer).code).toBe('BAD_USER_INPUT');
  });

  it('refuses a range of more days than a series shows (8,000 years were walked hour by hour)', async () => {
    const answer = await ask(SERIES, {
      name: 'swap',
      from: '1970-01-01T00:00:00Z',
      to: '9999-12-31T23:59:59.999Z',
    });
    expect(errorOf(answer).code).toBe('BAD_USER_INPUT');
    expect(errorOf(answer).message).toMatch(/at most 5000/);
  });
});
