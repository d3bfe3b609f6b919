import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventRow, W1, W2 } from '../analytics/events-fixture.ts';
import { dataOf, graphqlClient } from '../analytics/graphql-client.ts';
import { apiClient } from '../support/client.ts';
import { storeRows } from '../support/event-stores.ts';
import { useTestApp } from '../support/harness.ts';
import { type SeededUser, seed } from '../support/seed.ts';

/**
 * A blank landing UTM value (empty or only spaces) is none, as in acquisition's attribution
 * (docs/wallets.md, "Blank UTM values"), on both engines:
 * - W1 (u1) first connected 2024-04-02 in a session whose events carry `utm_source: ''` and
 *   `utm_campaign: '  '`; its page's first touch and its list row answer null (they answered '' and '  ');
 * - W2 (u2) first connected 2024-04-03 with source `ads`.
 * The cohorts of 1 to 10 April split by source without a value hold W1 (they held no cohort), with `ads` W2.
 */
const RANGE = { from: '2024-04-01T00:00:00.000Z', to: '2024-04-11T00:00:00.000Z' };

describe('blank UTM values are none', () => {
  const test = useTestApp('sqlite');
  let owner: SeededUser;
  let projectId = '';

  beforeAll(async () => {
    test.clock.setTo(Date.parse('2024-04-12T12:00:00Z'));
    const api = apiClient(test.app);
    owner = await seed(test.services).user().verified();
    projectId = (await api.post('projects', { token: owner.token, body: { name: 'blank' } })).json()
      .id as string;
    const blank = { utm_source: '', utm_campaign: '  ' };
    await storeRows(test.services.eventStore, [
      eventRow(projectId, '2024-04-02T10:00:00Z', 'u1', 'page_view', { withWallet: true, ...blank }),
      eventRow(projectId, '2024-04-02T10:00:01Z', 'u1', 'wallet_connected', { withWallet: true, ...blank }),
      eventRow(projectId, '2024-04-03T10:00:00Z', 'u2', 'wallet_connected', {
        withWallet: true,
        utm_source: 'ads',
      }),
    ]);
  });

  afterAll(() => test.clock.reset());

  const gql = async (query: string, variables: Record<string, unknown>) =>
    dataOf(await graphqlClient(test.app)(query, { projectId, ...variables }, { token: owner.token }));

  it('answers null on the wallet page and in the list', async () => {
    const page = await gql(
      `query W($projectId: ID!, $address: String!) {
        wallet(projectId: $projectId, address: $address) { firstTouch { source campaign } }
      }`,
      { address: W1 },
    );
    expect(page.wallet).toEqual({ firstTouch: { source: null, campaign: null } });
    const list = await gql(
      `query L($projectId: ID!, $from: DateTime, $to: DateTime) {
        wallets(projectId: $projectId, from: $from, to: $to, sort: "first_seen", descending: false) {
          rows { address source campaign }
        }
      }`,
      RANGE,
    );
    expect((list.wallets as { rows: unknown[] }).rows).toEqual([
      { address: W1, source: null, campaign: null },
      { address: W2, source: 'ads', campaign: null },
    ]);
  });

  it.each([
    ['no value', null, '2024-04-02T00:00:00.000Z'],
    ['ads', 'ads', '2024-04-03T00:00:00.000Z'],
  ])('splits the cohorts by source: %s', async (_, splitValue, start) => {
    const answer = await gql(
      `query C($projectId: ID!, $from: DateTime, $to: DateTime, $splitValue: String) {
        retentionCohorts(projectId: $projectId, from: $from, to: $to, splitDimension: "source",
          splitValue: $splitValue) { cohorts { start size } }
      }`,
      { ...RANGE, splitValue },
    );
    expect((answer.retentionCohorts as { cohorts: unknown[] }).cohorts).toEqual([{ start, size: 1 }]);
  });
});
