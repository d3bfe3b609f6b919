import { beforeAll, describe, expect, it } from 'vitest';
import { dataOf, errorOf, graphqlClient } from '../analytics/graphql-client.ts';
import { apiClient } from '../support/client.ts';
import { storeRows } from '../support/event-stores.ts';
import { useTestApp } from '../support/harness.ts';
import { type SeededUser, seed } from '../support/seed.ts';
import { C1, C2, WA1, WA2, WC, WK, WN, WP, WR, WX, walletEvents } from './fixture.ts';

/**
 * The wallet queries (docs/wallets.md) answer exactly what the definitions give on the hand-made set of
 * fixture.ts; run on DuckDB and, by vitest.clickhouse.config.ts, on ClickHouse (chdb).
 */

const test = useTestApp('sqlite');
let owner: SeededUser;
let stranger: SeededUser;
let main: string;
let forgetting: string;
let readToken: string;
let gql: (
  query: string,
  variables: Record<string, unknown>,
  token?: string,
) => ReturnType<ReturnType<typeof graphqlClient>>;

beforeAll(async () => {
  const seeded = seed(test.services).user().verified();
  const { user, project } = await seeded.project('Wallets');
  const { project: other } = await seeded.project('Forgetting');
  const { user: someoneElse } = await seed(test.services).user().verified().project('Foreign');
  owner = user;
  stranger = someoneElse;
  main = project.id;
  forgetting = other.id;
  await storeRows(test.services.eventStore, [...walletEvents(main), ...walletEvents(forgetting)]);
  const client = graphqlClient(test.app);
  gql = (query, variables, token) => client(query, variables, { token: token ?? owner.token });
  const created = await apiClient(test.app).post(`projects/${main}/read-tokens`, {
    token: owner.token,
    body: { name: 'BI' },
  });
  readToken = (created.json() as { token: string }).token;
});

const MAY = { from: '2024-05-01', to: '2024-06-01' };

const LIFECYCLE = `query L($projectId: ID!, $from: DateTime, $to: DateTime) {
  walletLifecycle(projectId: $projectId, from: $from, to: $to) {
    current { asOf new resurrected power active atRisk churned powerThreshold }
    previous { asOf new resurrected power active atRisk churned powerThreshold }
  }
}`;

const COHORTS = `query C($projectId: ID!, $from: DateTime, $to: DateTime, $returnBy: String, $splitDimension: String, $splitValue: String) {
  retentionCohorts(projectId: $projectId, from: $from, to: $to, returnBy: $returnBy, splitDimension: $splitDimension, splitValue: $splitValue) {
    granularity periods cohorts { start end size returned shares }
  }
}`;

const COST = `query F($projectId: ID!, $from: DateTime, $to: DateTime) {
  failedTransactionCost(projectId: $projectId, from: $from, to: $to) {
    chains { chainId gasPaidWei gasBurnedWei burnedShare reverted failedBeforeSubmission }
    rows { day chainId contract selector functionName reverted gasBurnedWei }
  }
}`;

const WALLET = `query W($projectId: ID!, $address: String!) {
  wallet(projectId: $projectId, address: $address) {
    address firstSeen lastSeen firstConnected
    firstTouch { source medium campaign referrer landingPath }
    countries browsers providers chains sessionCount transactions failedBeforeSubmission reverted stage
    gas { chainId gasPaidWei gasBurnedWei burnedShare reverted failedBeforeSubmission }
    sessions { sessionId startedAt endedAt events { type txId txStage gasUsed effectiveGasPrice errorMessage } }
  }
}`;

const LIST = `query List($projectId: ID!, $from: DateTime, $to: DateTime, $search: String, $stage: String, $source: String,
  $campaign: String, $chainId: ChainId, $country: String, $sort: String, $descending: Boolean, $first: Int, $after: String,
  $filters: AnalyticsFilters) {
  wallets(projectId: $projectId, from: $from, to: $to, search: $search, stage: $stage, source: $source,
    campaign: $campaign, chainId: $chainId, country: $country, sort: $sort, descending: $descending,
    first: $first, after: $after, filters: $filters) {
    asOf powerThreshold nextCursor
    rows { address firstSeen lastSeen transactions failed gasPaidWei stage source campaign }
  }
}`;

type ListAnswer = {
  asOf: string;
  powerThreshold: number | null;
  nextCursor: string | null;
  rows: { address: string; stage: string; transactions: number; failed: number; gasPaidWei: string }[];
};

async function list(variables: Record<string, unknown>, projectId = main): Promise<ListAnswer> {
  return dataOf(await gql(LIST, { projectId, ...MAY, ...variables })).wallets as ListAnswer;
}
const addresses = (answer: ListAnswer) => answer.rows.map((row) => row.address);

describe('lifecycle stages', () => {
  it('counts each stage as of the range’s last day and as of one range length before', async () => {
    const answer = dataOf(await gql(LIFECYCLE, { projectId: main, ...MAY }));
    expect(answer.walletLifecycle).toEqual({
      // As of 05-31: WN new; WR resurrected; WP power (5 of the last 28 days: the top tenth of WP 5, WA2 2,
      // WA1 1 is WP, threshold 5); WA1, WA2 active; WK at risk; WC, WX churned.
      current: {
        asOf: '2024-05-31',
        new: 1,
        resurrected: 1,
        power: 1,
        active: 2,
        atRisk: 1,
        churned: 2,
        powerThreshold: 5,
      },
      // As of 04-30 (31 days before): WA1, WC active (1 day each: threshold max(2, 1) = 2, none Power);
      // WP (04-15), WK (04-10) at risk; WR, WX churned; WN, WA2 not seen yet.
      previous: {
        asOf: '2024-04-30',
        new: 0,
        resurrected: 0,
        power: 0,
        active: 2,
        atRisk: 2,
        churned: 2,
        powerThreshold: 2,
      },
    });
  });
});

describe('retention cohorts', () => {
  const zeros = () => Array.from({ length: 12 }, () => 0);
  const withReturns = (returns: Record<number, number>) => {
    const values = zeros();
    for (const [k, wallets] of Object.entries(returns)) values[Number(k) - 1] = wallets;
    return values;
  };

  it('groups wallets by the week of their first connection and counts returns by connection', async () => {
    const answer = dataOf(await gql(COHORTS, { projectId: main, from: '2024-04-01', to: '2024-05-13' }))
      .retentionCohorts as {
      granularity: string;
      cohorts: { start: string; size: number; returned: number[]; shares: number[] }[];
    };
    expect(answer.granularity).toBe('WEEK');
    expect(answer.cohorts.map(({ start, size, returned }) => ({ start, size, returned }))).toEqual([
      // WP, WA1 (04-01) and WX (04-02); WP back in weeks 2, 7, 8; WA1 in 2 and 7.
      { start: '2024-04-01T00:00:00.000Z', size: 3, returned: withReturns({ 2: 2, 7: 2, 8: 1 }) },
      // WK (04-10), back on 05-10: week 5 from 04-01, 4 after its own.
      { start: '2024-04-08T00:00:00.000Z', size: 1, returned: withReturns({ 4: 1 }) },
      // WA2 (05-10), back on 05-30: week 8, 3 after its own.
      { start: '2024-05-06T00:00:00.000Z', size: 1, returned: withReturns({ 3: 1 }) },
    ]);
    expect(answer.cohorts[0]?.shares.slice(0, 8)).toEqual([0, 2 / 3, 0, 0, 0, 0, 2 / 3, 1 / 3]);
  });

  it('counts submitted transactions as returns with the switch, and narrows to one landing source', async () => {
    const transacted = dataOf(
      await gql(COHORTS, { projectId: main, from: '2024-04-01', to: '2024-05-13', returnBy: 'transacted' }),
    ).retentionCohorts as { cohorts: { size: number; returned: number[] }[] };
    expect(transacted.cohorts.map(({ size, returned }) => ({ size, returned }))).toEqual([
      { size: 3, returned: withReturns({ 7: 1 }) },
      { size: 1, returned: zeros() },
      { size: 1, returned: withReturns({ 3: 1 }) },
    ]);
    const discord = dataOf(
      await gql(COHORTS, {
        projectId: main,
        from: '2024-04-01',
        to: '2024-05-13',
        splitDimension: 'source',
        splitValue: 'discord',
      }),
    ).retentionCohorts as { cohorts: { size: number; returned: number[] }[] };
    expect(discord.cohorts.map(({ size, returned }) => ({ size, returned }))).toEqual([
      { size: 1, returned: withReturns({ 2: 1, 7: 1, 8: 1 }) },
    ]);
  });

  it('is daily under 30 days', async () => {
    const answer = dataOf(await gql(COHORTS, { projectId: main, from: '2024-04-01', to: '2024-04-15' }))
      .retentionCohorts as { granularity: string; cohorts: { start: string; size: number }[] };
    expect(answer.granularity).toBe('DAY');
    expect(answer.cohorts.map(({ start, size }) => [start.slice(0, 10), size])).toEqual([
      ['2024-04-01', 2],
      ['2024-04-02', 1],
      ['2024-04-10', 1],
    ]);
  });
});

describe('failed-transaction cost', () => {
  it('answers gas burned by reverted receipts per chain and per day, contract and function', async () => {
    const answer = dataOf(await gql(COST, { projectId: main, ...MAY })).failedTransactionCost;
    expect(answer).toEqual({
      chains: [
        // 137: tx-e 1.5e16 + tx-d 5e15 paid, tx-d burned.
        {
          chainId: 137,
          gasPaidWei: '20000000000000000',
          gasBurnedWei: '5000000000000000',
          burnedShare: 0.25,
          reverted: 1,
          failedBeforeSubmission: 0,
        },
        // 1: tx-a 1e15 + tx-b 3e14 + tx-c 1e15 paid, tx-b and tx-c burned; tx-f refused before submission.
        {
          chainId: 1,
          gasPaidWei: '2300000000000000',
          gasBurnedWei: '1300000000000000',
          burnedShare: 0.565217,
          reverted: 2,
          failedBeforeSubmission: 1,
        },
      ],
      rows: [
        {
          day: '2024-05-30',
          chainId: 137,
          contract: C1,
          selector: '0x095ea7b3',
          // Well-known selectors by name, as the contract functions; 0x12345678 is not one.
          functionName: 'approve(address,uint256)',
          reverted: 1,
          gasBurnedWei: '5000000000000000',
        },
        {
          day: '2024-05-30',
          chainId: 1,
          contract: C2,
          selector: '0x12345678',
          functionName: null,
          reverted: 1,
          gasBurnedWei: '1000000000000000',
        },
        {
          day: '2024-05-24',
          chainId: 1,
          contract: C1,
          selector: '0xa9059cbb',
          functionName: 'transfer(address,uint256)',
          reverted: 1,
          gasBurnedWei: '300000000000000',
        },
      ],
    });
  });
});

describe('the wallet page', () => {
  it('answers the profile of a wallet given in mixed case', async () => {
    const answer = dataOf(
      await gql(WALLET, { projectId: main, address: WP.toUpperCase().replace('0X', '0x') }),
    );
    const wallet = answer.wallet as Record<string, unknown> & { sessions: { events: { type: string }[] }[] };
    expect({ ...wallet, sessions: undefined }).toEqual({
      address: WP,
      firstSeen: '2024-04-01T09:00:00.000Z',
      lastSeen: '2024-05-30T09:00:00.000Z',
      firstConnected: '2024-04-01T09:00:00.000Z',
      firstTouch: {
        source: 'discord',
        medium: 'social',
        campaign: 'launch',
        referrer: 'https://discord.com/',
        landingPath: '/swap',
      },
      countries: ['DE'],
      browsers: ['Chrome'],
      providers: ['MetaMask'],
      chains: [1, 137],
      sessionCount: 7,
      transactions: 3,
      failedBeforeSubmission: 0,
      reverted: 1,
      // Today, years after its last day.
      stage: 'CHURNED',
      gas: [
        {
          chainId: 1,
          gasPaidWei: '1300000000000000',
          gasBurnedWei: '300000000000000',
          // 3 of 13, as the failed-transaction cost rounds it.
          burnedShare: 0.230769,
          reverted: 1,
          failedBeforeSubmission: 0,
        },
        {
          chainId: 137,
          gasPaidWei: '15000000000000000',
          gasBurnedWei: '0',
          burnedShare: 0,
          reverted: 0,
          failedBeforeSubmission: 0,
        },
      ],
      sessions: undefined,
    });
    expect(wallet.sessions).toHaveLength(7);
    expect(wallet.sessions[0]?.events.map((event) => event.type)).toEqual(['page_view', 'wallet_connected']);
    // The 05-24 session: the connection, then tx-b's three stages with the reverted receipt's gas.
    expect(wallet.sessions[2]?.events).toEqual([
      expect.objectContaining({ type: 'page_view' }),
      expect.objectContaining({ type: 'wallet_connected' }),
      expect.objectContaining({ txId: 'tx-b', txStage: 'requested' }),
      expect.objectContaining({ txId: 'tx-b', txStage: 'submitted' }),
      expect.objectContaining({
        txId: 'tx-b',
        txStage: 'reverted',
        gasUsed: '30000',
        effectiveGasPrice: '10000000000',
      }),
    ]);
  });

  it("decides the stage as of today from the wallet's recent days and its first day, as the list does", async () => {
    // Today 05-31 (the list's as-of day): WR's first day (03-01) lies 91 days back, before the days the
    // page reads (from 60 days back), and still makes it Resurrected; WP is Power (threshold 5). Asked
    // with the read token: the owner's session was opened in today's real time.
    test.clock.setTo(Date.parse('2024-05-31T12:00:00.000Z'));
    try {
      const stageOf = async (address: string) =>
        (dataOf(await gql(WALLET, { projectId: main, address }, readToken)).wallet as { stage: string })
          .stage;
      expect(await stageOf(WR)).toBe('RESURRECTED');
      expect(await stageOf(WP)).toBe('POWER');
      expect(await stageOf(WA1)).toBe('ACTIVE');
      expect(await stageOf(WK)).toBe('AT_RISK');
      expect(await stageOf(WC)).toBe('CHURNED');
      expect(await stageOf(WN)).toBe('NEW');
    } finally {
      test.clock.reset();
    }
  });

  it('answers null for an address the project never saw, and BAD_USER_INPUT for a malformed one', async () => {
    expect(dataOf(await gql(WALLET, { projectId: main, address: `0x${'9'.repeat(40)}` })).wallet).toBeNull();
    for (const address of ['0x123', `${'a'.repeat(42)}`, `0x${'g'.repeat(40)}`, '']) {
      expect(errorOf(await gql(WALLET, { projectId: main, address })).code).toBe('BAD_USER_INPUT');
    }
  });
});

describe('the Wallets list', () => {
  it('lists the wallets seen in the range with their figures, latest first', async () => {
    const answer = await list({});
    expect(answer.asOf).toBe('2024-05-31');
    expect(answer.rows).toEqual([
      {
        address: WA2,
        firstSeen: '2024-05-10T09:00:00.000Z',
        lastSeen: '2024-05-30T12:22:00.000Z',
        transactions: 2,
        failed: 2,
        gasPaidWei: '6000000000000000',
        stage: 'ACTIVE',
        source: null,
        campaign: null,
      },
      {
        address: WP,
        firstSeen: '2024-04-01T09:00:00.000Z',
        lastSeen: '2024-05-30T09:00:00.000Z',
        transactions: 3,
        failed: 1,
        gasPaidWei: '16300000000000000',
        stage: 'POWER',
        source: 'discord',
        campaign: 'launch',
      },
      {
        address: WN,
        firstSeen: '2024-05-28T09:00:00.000Z',
        lastSeen: '2024-05-28T09:00:00.000Z',
        transactions: 0,
        failed: 0,
        gasPaidWei: '0',
        stage: 'NEW',
        source: null,
        campaign: null,
      },
      {
        address: WA1,
        firstSeen: '2024-04-01T09:00:00.000Z',
        lastSeen: '2024-05-25T09:11:00.000Z',
        transactions: 1,
        failed: 1,
        gasPaidWei: '0',
        stage: 'ACTIVE',
        source: null,
        campaign: null,
      },
      {
        address: WR,
        firstSeen: '2024-03-01T09:00:00.000Z',
        lastSeen: '2024-05-20T09:00:00.000Z',
        transactions: 0,
        failed: 0,
        gasPaidWei: '0',
        stage: 'RESURRECTED',
        source: null,
        campaign: null,
      },
      {
        address: WK,
        firstSeen: '2024-04-10T09:00:00.000Z',
        lastSeen: '2024-05-10T09:00:00.000Z',
        transactions: 0,
        failed: 0,
        gasPaidWei: '0',
        stage: 'AT_RISK',
        source: null,
        campaign: null,
      },
    ]);
    expect(answer.nextCursor).toBeNull();
    expect(addresses(await list({}))).not.toContain(WC);
    expect(addresses(await list({}))).not.toContain(WX);
  });

  it('pages with a cursor in any sort, ties by address', async () => {
    const first = await list({ sort: 'gas_paid', first: 2 });
    expect(addresses(first)).toEqual([WP, WA2]);
    const second = await list({ sort: 'gas_paid', first: 2, after: first.nextCursor });
    expect(addresses(second)).toEqual([WK, WA1]);
    const third = await list({ sort: 'gas_paid', first: 2, after: second.nextCursor });
    expect(addresses(third)).toEqual([WR, WN]);
    expect(third.nextCursor).toBeNull();
    expect(addresses(await list({ sort: 'first_seen', descending: false }))).toEqual([
      WR,
      WP,
      WA1,
      WK,
      WA2,
      WN,
    ]);
    expect(addresses(await list({ sort: 'failed', first: 1 }))).toEqual([WA2]);
    expect(addresses(await list({ sort: 'transactions', first: 1 }))).toEqual([WP]);
  });

  it('filters by stage, chain, country, landing source and campaign, and searches by address or prefix', async () => {
    expect(addresses(await list({ stage: 'POWER' }))).toEqual([WP]);
    expect(addresses(await list({ stage: 'at_risk' }))).toEqual([WK]);
    expect(addresses(await list({ chainId: 137 }))).toEqual([WA2, WP]);
    expect(addresses(await list({ country: 'FR' }))).toEqual([WK]);
    expect(addresses(await list({ source: 'discord' }))).toEqual([WP]);
    expect(addresses(await list({ campaign: 'launch' }))).toEqual([WP]);
    expect(addresses(await list({ search: 'C3C3C3' }))).toEqual([WP]);
    expect(addresses(await list({ search: WP.toUpperCase().replace('0X', '0x') }))).toEqual([WP]);
    expect(addresses(await list({ search: '0xd4d4d4' }))).toEqual([WA1]);
  });

  it('refuses bad input with BAD_USER_INPUT', async () => {
    const cursor = (await list({ sort: 'gas_paid', first: 1 })).nextCursor;
    const cases: Record<string, unknown>[] = [
      { search: 'c3c3' },
      { search: '0xc3c3' },
      { search: 'zzzzzzzz' },
      { stage: 'SLEEPY' },
      { sort: 'balance' },
      { from: '2024-06-01', to: '2024-05-01' },
      { from: '2023-01-01', to: '2024-05-01' },
      // A cursor of another query (another sort), and one that is not a cursor.
      { sort: 'last_seen', after: cursor },
      { after: 'not-a-cursor' },
    ];
    for (const variables of cases) {
      const answer = await gql(LIST, { projectId: main, ...MAY, ...variables });
      expect(errorOf(answer).code, JSON.stringify(variables)).toBe('BAD_USER_INPUT');
    }
    expect(errorOf(await gql(COHORTS, { projectId: main, returnBy: 'clicked' })).code).toBe('BAD_USER_INPUT');
    expect(errorOf(await gql(COHORTS, { projectId: main, splitDimension: 'country' })).code).toBe(
      'BAD_USER_INPUT',
    );
    expect(errorOf(await gql(COST, { projectId: main, from: '2024-06-01', to: '2024-05-01' })).code).toBe(
      'BAD_USER_INPUT',
    );
    expect(
      errorOf(await gql(LIFECYCLE, { projectId: main, from: '2022-01-01', to: '2024-05-01' })).code,
    ).toBe('BAD_USER_INPUT');
  });
});

describe('access', () => {
  it('answers a read token of the project, and another user as if the project did not exist', async () => {
    const answer = await gql(WALLET, { projectId: main, address: WP }, readToken);
    expect((dataOf(answer).wallet as { address: string }).address).toBe(WP);
    for (const [query, variables] of [
      [WALLET, { address: WP }],
      [LIST, MAY],
      [LIFECYCLE, MAY],
      [COHORTS, MAY],
      [COST, MAY],
    ] as const) {
      const refused = await gql(query, { projectId: main, ...variables }, stranger.token);
      expect(errorOf(refused).code).toBe('NOT_FOUND');
    }
    // The read token reads its own project only.
    expect(errorOf(await gql(WALLET, { projectId: forgetting, address: WP }, readToken)).code).toBe(
      'NOT_FOUND',
    );
  });
});

describe('forgetting a wallet', () => {
  it('removes it from the page, the list, the stages, the cohorts and the cost', async () => {
    const forgot = await apiClient(test.app).post(`projects/${forgetting}/forget`, {
      token: owner.token,
      body: { wallet: WA2.toUpperCase().replace('0X', '0x') },
    });
    expect(forgot.statusCode).toBe(200);
    expect(dataOf(await gql(WALLET, { projectId: forgetting, address: WA2 })).wallet).toBeNull();
    expect(addresses(await list({}, forgetting))).toEqual([WP, WN, WA1, WR, WK]);
    const lifecycle = dataOf(await gql(LIFECYCLE, { projectId: forgetting, ...MAY })).walletLifecycle as {
      current: { active: number; power: number; powerThreshold: number };
    };
    // WP and WA1 are left as candidates: ⌈2/10⌉ = 1st, WP's 5 days.
    expect(lifecycle.current).toMatchObject({ active: 1, power: 1, powerThreshold: 5 });
    const cohorts = dataOf(
      await gql(COHORTS, { projectId: forgetting, from: '2024-04-01', to: '2024-05-13' }),
    ).retentionCohorts as { cohorts: { start: string }[] };
    expect(cohorts.cohorts.map((cohort) => cohort.start.slice(0, 10))).toEqual(['2024-04-01', '2024-04-08']);
    const cost = dataOf(await gql(COST, { projectId: forgetting, ...MAY })).failedTransactionCost as {
      chains: { chainId: number; gasBurnedWei: string }[];
    };
    expect(cost.chains.map((chain) => [chain.chainId, chain.gasBurnedWei])).toEqual([
      [137, '0'],
      [1, '300000000000000'],
    ]);
  });
});

describe('the Wallets cards with the Analytics filters', () => {
  const FILTERED_LIFECYCLE = `query L($projectId: ID!, $from: DateTime, $to: DateTime, $filters: AnalyticsFilters) {
    walletLifecycle(projectId: $projectId, from: $from, to: $to, filters: $filters) {
      current { asOf new resurrected power active atRisk churned powerThreshold }
      previous { asOf new resurrected power active atRisk churned powerThreshold }
    }
  }`;
  const FILTERED_COHORTS = `query C($projectId: ID!, $from: DateTime, $to: DateTime, $filters: AnalyticsFilters) {
    retentionCohorts(projectId: $projectId, from: $from, to: $to, filters: $filters) {
      cohorts { start size returned }
    }
  }`;
  const FILTERED_COST = `query F($projectId: ID!, $from: DateTime, $to: DateTime, $filters: AnalyticsFilters) {
    failedTransactionCost(projectId: $projectId, from: $from, to: $to, filters: $filters) {
      chains { chainId gasPaidWei gasBurnedWei burnedShare reverted failedBeforeSubmission }
      rows { day chainId contract selector reverted gasBurnedWei }
    }
  }`;
  const stages = (asOf: string, counts: Record<string, number>, powerThreshold: number | null) => ({
    asOf,
    new: 0,
    resurrected: 0,
    power: 0,
    active: 0,
    atRisk: 0,
    churned: 0,
    ...counts,
    powerThreshold,
  });
  const returns = (values: Record<number, number>) =>
    Array.from({ length: 12 }, (_, k) => values[k + 1] ?? 0);

  it('counts the stages of the wallets a passing session carried, with every wallet’s Power threshold', async () => {
    // May: only WK's session of 05-10 is in France. WK is at risk as of 05-31; the threshold stays 5 (WP's),
    // though no matched wallet is a candidate. April (the period before): WK's 04-10, at risk as of 04-30.
    const france = dataOf(
      await gql(FILTERED_LIFECYCLE, { projectId: main, ...MAY, filters: { countries: ['FR'] } }),
    );
    expect(france.walletLifecycle).toEqual({
      current: stages('2024-05-31', { atRisk: 1 }, 5),
      previous: stages('2024-04-30', { atRisk: 1 }, 2),
    });
    // Chain 137: WP's session of 05-26 (tx-e) and WA2's of 05-30 (tx-d); none in April.
    const polygon = dataOf(
      await gql(FILTERED_LIFECYCLE, { projectId: main, ...MAY, filters: { chains: [137] } }),
    );
    expect(polygon.walletLifecycle).toEqual({
      current: stages('2024-05-31', { power: 1, active: 1 }, 5),
      previous: stages('2024-04-30', {}, 2),
    });
  });

  it('keeps the cohorts’ wallets whose first connection was in a passing session, their returns anywhere', async () => {
    const ask = async (filters: Record<string, unknown>) =>
      (
        dataOf(
          await gql(FILTERED_COHORTS, { projectId: main, from: '2024-04-01', to: '2024-05-13', filters }),
        ).retentionCohorts as { cohorts: { start: string; size: number; returned: number[] }[] }
      ).cohorts;
    // WK first connected on 04-10 in France; back on 05-10 (4 weeks after its own).
    expect(await ask({ countries: ['FR'] })).toEqual([
      { start: '2024-04-08T00:00:00.000Z', size: 1, returned: returns({ 4: 1 }) },
    ]);
    // WP landed from discord.com on 04-01 and connected there; back in weeks 2, 7 and 8.
    expect(await ask({ referrers: ['discord.com'] })).toEqual([
      { start: '2024-04-01T00:00:00.000Z', size: 1, returned: returns({ 2: 1, 7: 1, 8: 1 }) },
    ]);
    // No first connection in April–May 12 was on chain 137.
    expect(await ask({ chains: [137] })).toEqual([]);
  });

  it("answers the cost of the transactions whose request's session passes", async () => {
    // Chain 137 keeps WP's session of 05-26 (tx-e) and WA2's of 05-30, with both its transactions (tx-c on
    // chain 1, tx-d on 137); tx-f (WA1's refusal) and tx-a, tx-b are in other sessions.
    const polygon = dataOf(
      await gql(FILTERED_COST, { projectId: main, ...MAY, filters: { chains: [137] } }),
    ).failedTransactionCost;
    expect(polygon).toEqual({
      chains: [
        {
          chainId: 137,
          gasPaidWei: '20000000000000000',
          gasBurnedWei: '5000000000000000',
          burnedShare: 0.25,
          reverted: 1,
          failedBeforeSubmission: 0,
        },
        {
          chainId: 1,
          gasPaidWei: '1000000000000000',
          gasBurnedWei: '1000000000000000',
          burnedShare: 1,
          reverted: 1,
          failedBeforeSubmission: 0,
        },
      ],
      rows: [
        {
          day: '2024-05-30',
          chainId: 137,
          contract: C1,
          selector: '0x095ea7b3',
          reverted: 1,
          gasBurnedWei: '5000000000000000',
        },
        {
          day: '2024-05-30',
          chainId: 1,
          contract: C2,
          selector: '0x12345678',
          reverted: 1,
          gasBurnedWei: '1000000000000000',
        },
      ],
    });
    const france = dataOf(
      await gql(FILTERED_COST, { projectId: main, ...MAY, filters: { countries: ['FR'] } }),
    ).failedTransactionCost;
    expect(france).toEqual({ chains: [], rows: [] });
  });

  it('lists the wallets a passing session carried, as many per stage as the filtered lifecycle counts', async () => {
    // France: WK's session of 05-10. Chain 137: WP's session of 05-26 and WA2's of 05-30 (its tx-c on
    // chain 1 included: the session passes, not the event). Each at its unfiltered stage.
    expect((await list({ filters: { countries: ['FR'] } })).rows).toMatchObject([
      { address: WK, stage: 'AT_RISK' },
    ]);
    expect((await list({ filters: { chains: [137] } })).rows).toMatchObject([
      { address: WA2, stage: 'ACTIVE', transactions: 2 },
      { address: WP, stage: 'POWER', transactions: 3 },
    ]);
    // Filters and the list's own narrowing combine with AND.
    expect(addresses(await list({ filters: { chains: [137] }, stage: 'POWER' }))).toEqual([WP]);
    expect(addresses(await list({ filters: { chains: [137] }, country: 'FR' }))).toEqual([]);
    expect(addresses(await list({ filters: { referrers: ['discord.com'] } }))).toEqual([]);
    // The count of each stage's list is the filtered card's count (the console's link from the card).
    const names = {
      NEW: 'new',
      RESURRECTED: 'resurrected',
      POWER: 'power',
      ACTIVE: 'active',
      AT_RISK: 'atRisk',
      CHURNED: 'churned',
    };
    for (const filters of [{ countries: ['FR'] }, { chains: [137] }, { browsers: ['Chrome'] }]) {
      const card = dataOf(await gql(FILTERED_LIFECYCLE, { projectId: main, ...MAY, filters }))
        .walletLifecycle as { current: Record<string, number> };
      for (const [stage, field] of Object.entries(names)) {
        const listed = await list({ filters, stage, first: 200 });
        expect(listed.rows.length, `${JSON.stringify(filters)} ${stage}`).toBe(card.current[field]);
      }
    }
    // A cursor of the unfiltered list is refused on the filtered one.
    const cursor = (await list({ first: 1 })).nextCursor;
    expect(
      errorOf(
        await gql(LIST, { projectId: main, ...MAY, first: 1, after: cursor, filters: { chains: [137] } }),
      ).code,
    ).toBe('BAD_USER_INPUT');
  });

  it('answers as unfiltered with empty lists, and refuses a bad list with BAD_USER_INPUT', async () => {
    expect(await list({ filters: { countries: [] } })).toEqual(await list({}));
    const plain = dataOf(await gql(FILTERED_COST, { projectId: main, ...MAY }));
    expect(dataOf(await gql(FILTERED_COST, { projectId: main, ...MAY, filters: { countries: [] } }))).toEqual(
      plain,
    );
    for (const query of [FILTERED_LIFECYCLE, FILTERED_COHORTS, FILTERED_COST, LIST]) {
      const answer = await gql(query, { projectId: main, ...MAY, filters: { pages: [''] } });
      expect(errorOf(answer)).toEqual({ code: 'BAD_USER_INPUT', message: expect.stringMatching(/pages/) });
    }
  });
});
