import type { GoalInput } from '@polyflow/contracts/goals';
import { beforeAll, describe, expect, it } from 'vitest';
import { blankRow, type EventRow } from '../../src/modules/event-store/event-row.ts';
import { dataOf, errorOf, graphqlClient } from '../analytics/graphql-client.ts';
import { apiClient } from '../support/client.ts';
import { storeRows } from '../support/event-stores.ts';
import { useTestApp } from '../support/harness.ts';
import { seed } from '../support/seed.ts';

/**
 * docs/goals.md, by hand, on the engine EVENT_STORE names (both in the full run). Range [Feb 1, Feb 3)
 * 2024 UTC unless said. u1 and u2 identify as acct-1 (one user); u5 only visits (a user without a
 * conversion); u6 acts in the period before.
 */
let counter = 0;
function row(
  projectId: string,
  at: string,
  user: string,
  session: string,
  type: string,
  extra: Partial<EventRow> = {},
): EventRow {
  const ts = Date.parse(at);
  return {
    ...blankRow({
      project_id: projectId,
      id: `go_${(counter++).toString().padStart(5, '0')}`,
      type,
      ts,
      received_at: ts + 100,
      user_id: user,
      session_id: session,
      origin: 'app.example.com',
    }),
    ...extra,
  };
}

function fixture(p: string): EventRow[] {
  const spring = { utm_campaign: 'spring' };
  const fall = { utm_campaign: 'fall' };
  const view = (at: string, user: string, session: string, path: string, extra: Partial<EventRow> = {}) =>
    row(p, at, user, session, 'page_view', { path, ...extra });
  const custom = (
    at: string,
    user: string,
    session: string,
    name: string,
    props: object | null,
    extra: Partial<EventRow> = {},
  ) =>
    row(p, at, user, session, 'custom', {
      event_name: name,
      props: props ? JSON.stringify(props) : null,
      ...extra,
    });
  return [
    view('2024-02-01T10:00:00Z', 'u1', 's1', '/docs/a/intro', spring),
    custom('2024-02-01T10:05:00Z', 'u1', 's1', 'signup', { plan: 'pro' }, spring),
    row(p, '2024-02-01T10:10:00Z', 'u1', 's1', 'identify', { app_user_id: 'acct-1', ...spring }),
    view('2024-02-01T11:00:00Z', 'u2', 's2', '/docs', spring),
    custom('2024-02-01T11:05:00Z', 'u2', 's2', 'signup', { plan: 'free' }, spring),
    row(p, '2024-02-01T11:10:00Z', 'u2', 's2', 'identify', { app_user_id: 'acct-1', ...spring }),
    view('2024-02-02T09:00:00Z', 'u3', 's3a', '/pricing'),
    custom('2024-02-02T09:05:00Z', 'u3', 's3a', 'signup', { plan: 'team', seats: 3 }),
    view('2024-02-02T12:00:00Z', 'u3', 's3b', '/docs/b/intro', fall),
    // Two segments where the pattern has one; its country passes the DE filter.
    view('2024-02-02T13:00:00Z', 'u4', 's4', '/docs/a/b/intro', { ...fall, country: 'DE' }),
    custom('2024-02-02T13:05:00Z', 'u4', 's4', 'deposit', { amount: 1.5 }, { ...fall, country: 'DE' }),
    // Not /docs/**; a blank campaign is no campaign; a deposit of another amount; a custom event named as a path.
    view('2024-02-01T09:00:00Z', 'u5', 's5', '/docsx', { utm_campaign: '  ' }),
    custom('2024-02-01T09:05:00Z', 'u5', 's5', 'deposit', { amount: 2 }),
    custom('2024-02-01T09:06:00Z', 'u5', 's5', '/docs', null),
    // The period before.
    view('2024-01-31T10:00:00Z', 'u6', 's6', '/docs/x/intro'),
    custom('2024-01-31T10:05:00Z', 'u6', 's6', 'signup', null),
  ];
}

const GOALS: GoalInput[] = [
  { name: 'Signed up', kind: 'event', eventName: 'signup' },
  { name: 'Pro signup', kind: 'event', eventName: 'signup', propertyKey: 'plan', propertyValue: 'pro' },
  { name: 'Docs intro', kind: 'path', pathPattern: '/docs/*/intro' },
  { name: 'Any docs', kind: 'path', pathPattern: '/docs/**' },
  { name: 'Deposit 1.5', kind: 'event', eventName: 'deposit', propertyKey: 'amount', propertyValue: '1.5' },
  { name: 'Never', kind: 'path', pathPattern: '/nothing' },
];

const test = useTestApp('sqlite');
const world = {} as {
  main: string;
  ids: string[];
  gql: ReturnType<typeof graphqlClient>;
  token: string;
  strangerToken: string;
  otherIds: string[];
};
beforeAll(async () => {
  const { user, project } = await seed(test.services).user().verified().project('Main');
  const { user: stranger, project: other } = await seed(test.services).user().verified().project('Other');
  await storeRows(test.services.eventStore, [...fixture(project.id), ...fixture(other.id)]);
  const api = apiClient(test.app);
  const create = async (projectId: string, token: string, body: GoalInput) =>
    (await api.post(`projects/${projectId}/goals`, { token, body })).json().id as string;
  const ids: string[] = [];
  for (const goal of GOALS) ids.push(await create(project.id, user.token, goal));
  // The other tenant's goals match all of its events: they never show in Main's figures.
  const otherIds = [
    await create(other.id, stranger.token, { name: 'All', kind: 'path', pathPattern: '/**' }),
  ];
  Object.assign(world, {
    main: project.id,
    ids,
    otherIds,
    gql: graphqlClient(test.app),
    token: user.token,
    strangerToken: stranger.token,
  });
});

const ask = async (query: string, variables: Record<string, unknown>, token = world.token) =>
  world.gql(query, { projectId: world.main, from: '2024-02-01', to: '2024-02-03', ...variables }, { token });

const CONVERSIONS = `query ($projectId: ID!, $from: DateTime, $to: DateTime, $previous: Boolean) {
  goalConversions(projectId: $projectId, from: $from, to: $to, previous: $previous) {
    users goals { goal { name } conversions rate } } }`;
const ATTRIBUTION = `query ($projectId: ID!, $goalId: ID!, $dimension: AttributionDimension!, $from: DateTime,
  $to: DateTime, $filters: AcquisitionFilters) {
  goalAttribution(projectId: $projectId, goalId: $goalId, dimension: $dimension, from: $from, to: $to,
    filters: $filters) { goal { name } rows { isTotal value conversions } } }`;

/** Rows in the answer's order: Total, then the values in byte order, Unattributed (null) last. */
type Row = { isTotal: boolean; value: string | null; conversions: number };

describe('goalConversions', () => {
  it('counts converting users per goal and the rate over users with any event', async () => {
    const answer = dataOf(await ask(CONVERSIONS, {})).goalConversions as {
      users: number;
      goals: { goal: { name: string }; conversions: number; rate: number }[];
    };
    // acct-1 (u1 + u2), u3, u4, u5.
    expect(answer.users).toBe(4);
    expect(answer.goals.map((goal) => [goal.goal.name, goal.conversions, goal.rate])).toEqual([
      ['Signed up', 2, 0.5], // acct-1, u3
      ['Pro signup', 1, 0.25], // acct-1 (u1's plan pro)
      ['Docs intro', 2, 0.5], // acct-1 (/docs/a/intro), u3 (/docs/b/intro); not u4's two segments
      ['Any docs', 3, 0.75], // acct-1 (/docs/a/intro, /docs), u3, u4; not /docsx nor an event named /docs
      ['Deposit 1.5', 1, 0.25], // u4; u5's amount is 2
      ['Never', 0, 0],
    ]);
  });

  it('answers the period before with previous: true', async () => {
    const answer = dataOf(await ask(CONVERSIONS, { previous: true })).goalConversions as {
      users: number;
      goals: { conversions: number }[];
    };
    expect(answer.users).toBe(1);
    expect(answer.goals.map((goal) => goal.conversions)).toEqual([1, 0, 1, 1, 0, 0]);
  });

  it('gives a null rate over a period without users', async () => {
    const answer = dataOf(await ask(CONVERSIONS, { from: '2023-01-01', to: '2023-01-02' }))
      .goalConversions as {
      users: number;
      goals: { rate: number | null }[];
    };
    expect(answer.users).toBe(0);
    expect(answer.goals.every((goal) => goal.rate === null)).toBe(true);
  });

  it("keeps other users' projects absent", async () => {
    expect(errorOf(await ask(CONVERSIONS, {}, world.strangerToken)).code).toBe('NOT_FOUND');
  });
});

describe('goalAttribution', () => {
  it("counts a goal's converting users by the landing campaign of the session they converted in", async () => {
    const anyDocs = dataOf(await ask(ATTRIBUTION, { goalId: world.ids[3], dimension: 'campaign' }))
      .goalAttribution as { goal: { name: string }; rows: Row[] };
    expect(anyDocs.goal.name).toBe('Any docs');
    expect(anyDocs.rows).toEqual([
      { isTotal: true, value: null, conversions: 3 },
      { isTotal: false, value: 'fall', conversions: 2 }, // u3 (s3b), u4
      { isTotal: false, value: 'spring', conversions: 1 }, // acct-1 in s1 and s2: one user
      { isTotal: false, value: null, conversions: 0 }, // s3a, s5 (a blank campaign)
    ]);
    const signedUp = dataOf(await ask(ATTRIBUTION, { goalId: world.ids[0], dimension: 'campaign' }))
      .goalAttribution as { rows: Row[] };
    expect(signedUp.rows).toEqual([
      { isTotal: true, value: null, conversions: 2 },
      { isTotal: false, value: 'fall', conversions: 0 },
      { isTotal: false, value: 'spring', conversions: 1 },
      { isTotal: false, value: null, conversions: 1 }, // u3 signed up in s3a, without a campaign
    ]);
  });

  it("keeps to the attribution table's filters", async () => {
    const answer = dataOf(
      await ask(ATTRIBUTION, { goalId: world.ids[3], dimension: 'campaign', filters: { countries: ['DE'] } }),
    ).goalAttribution as { rows: Row[] };
    expect(answer.rows).toEqual([
      { isTotal: true, value: null, conversions: 1 },
      { isTotal: false, value: 'fall', conversions: 1 },
    ]);
  });

  it("answers an unknown goal, or another project's, as absent", async () => {
    for (const goalId of ['00000000-0000-4000-8000-000000000000', world.otherIds[0], 'not-an-id']) {
      const answer = await ask(ATTRIBUTION, { goalId, dimension: 'campaign' });
      expect(errorOf(answer).code, goalId).toBe('NOT_FOUND');
    }
  });
});
