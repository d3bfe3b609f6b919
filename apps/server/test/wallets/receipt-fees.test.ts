import { beforeAll, describe, expect, it } from 'vitest';
import { blankRow, type EventRow } from '../../src/modules/event-store/event-row.ts';
import { dataOf, graphqlClient } from '../analytics/graphql-client.ts';
import { storeRows } from '../support/event-stores.ts';
import { useTestApp } from '../support/harness.ts';
import { type SeededUser, seed } from '../support/seed.ts';

/**
 * Receipt fees by the rules of docs/wallets.md: the failed-transaction cost's burned share is burned / paid
 * rounded to 6 decimals (2e15 burned of 3e15 paid is 0.666667, not the 0.666666 a cut would give); of a
 * transaction's receipts of one kind the latest counts, in one millisecond the greatest event id, and a
 * batch's outcome stage (no gas price) is no receipt. Run on DuckDB and, by vitest.clickhouse.config.ts,
 * on ClickHouse (chdb).
 */

const test = useTestApp('sqlite');
let owner: SeededUser;
let projectId: string;
const WALLET = `0x${'ab'.repeat(20)}`;
const CONTRACT = `0x${'cd'.repeat(20)}`;
const GWEI = 1_000_000_000n;
const OTHER_WALLET = `0x${'ef'.repeat(20)}`;
const HASH = {
  h1: `0x${'d1'.repeat(32)}`,
  h2: `0x${'d2'.repeat(32)}`,
  h3: `0x${'d3'.repeat(32)}`,
  h4: `0x${'e4'.repeat(32)}`,
};
/** The receipts' fees of SEVERAL, each hash at its latest report. */
const FEE = {
  h1First: 46_000n * 1_000_000_007n,
  h1: 46_000n * 1_100_000_000n,
  h2: 21_000n * 875_000_011n,
  h3: 30_000n * 900_000_000n,
  h4First: 21_000n * 2n * GWEI,
  h4: 21_000n * 3n * GWEI,
};

/** On chain 1, 2024-05-10: a confirmed transaction paying 1e15 wei and a reverted one burning 2e15. */
function events(project: string): EventRow[] {
  const row = (id: string, at: string, extra: Partial<EventRow>): EventRow => {
    const ts = Date.parse(at);
    return {
      ...blankRow({
        project_id: project,
        id,
        type: 'tx',
        ts,
        received_at: ts + 100,
        user_id: 'user-ab',
        session_id: `ab-${at.slice(0, 10)}`,
        origin: 'app.example.com',
      }),
      path: '/swap',
      wallet_address: WALLET,
      chain_id: 1,
      tx_from: WALLET,
      tx_to: CONTRACT,
      selector: '0xa9059cbb',
      tx_kind: 'contract',
      ...extra,
    };
  };
  const transaction = (tx: string, hour: string, outcome: string, gasUsed: bigint, gwei: bigint) => {
    const hash = `0x${tx.repeat(32)}`;
    return [
      row(`${tx}-1`, `2024-05-10T${hour}:00:00Z`, { tx_id: tx, tx_stage: 'requested' }),
      row(`${tx}-2`, `2024-05-10T${hour}:01:00Z`, { tx_id: tx, tx_stage: 'submitted', tx_hash: hash }),
      row(`${tx}-3`, `2024-05-10T${hour}:02:00Z`, {
        tx_id: tx,
        tx_stage: outcome,
        tx_hash: hash,
        gas_used: gasUsed,
        effective_gas_price: gwei * GWEI,
      }),
    ];
  };
  // An EIP-5792 batch on chain 10 (June), mined as two transactions whose receipts share a millisecond:
  // c3-3 (50,000 gas × 10 gwei = 5e14) and c3-4 (30,000 × 10 gwei = 3e14); c3-4, the greater id, counts.
  // Its outcome a millisecond later carries the total gas and no price.
  const batch = { tx_id: 'c3', chain_id: 10, tx_hash: `0x${'c3'.repeat(32)}` };
  const receipt = (id: string, gasUsed: bigint) =>
    row(id, '2024-06-10T09:00:05Z', {
      ...batch,
      tx_stage: 'confirmed',
      gas_used: gasUsed,
      effective_gas_price: 10n * GWEI,
    });
  // Another wallet's, on Base, 2024-07-10 (SEVERAL below): a batch mined as three transactions (two
  // confirmed, one reverted), one receipt reported again at another price; and a transaction whose receipt
  // was reported confirmed, then reverted (a reorg): each receipt hash counts once, at its latest report.
  const other = (id: string, at: string, extra: Partial<EventRow>) =>
    row(id, `2024-07-10T${at}Z`, {
      wallet_address: OTHER_WALLET,
      tx_from: OTHER_WALLET,
      chain_id: 8453,
      ...extra,
    });
  const mined = (
    id: string,
    at: string,
    tx: string,
    stage: string,
    hash: string,
    gas: bigint,
    price: bigint,
  ) =>
    other(id, at, { tx_id: tx, tx_stage: stage, tx_hash: hash, gas_used: gas, effective_gas_price: price });
  const several = [
    other('d4-1', '10:00:00', { tx_id: 'd4', tx_stage: 'requested' }),
    other('d4-2', '10:00:01', { tx_id: 'd4', tx_stage: 'submitted' }),
    mined('d4-3', '10:00:05', 'd4', 'confirmed', HASH.h1, 46_000n, 1_000_000_007n),
    mined('d4-4', '10:00:07', 'd4', 'confirmed', HASH.h1, 46_000n, 1_100_000_000n),
    mined('d4-5', '10:00:09', 'd4', 'confirmed', HASH.h2, 21_000n, 875_000_011n),
    mined('d4-6', '10:00:12', 'd4', 'reverted', HASH.h3, 30_000n, 900_000_000n),
    other('d4-7', '10:00:12.001', { tx_id: 'd4', tx_stage: 'reverted', gas_used: 97_000n }),
    other('e5-1', '11:00:00', { tx_id: 'e5', tx_stage: 'requested' }),
    mined('e5-2', '11:00:05', 'e5', 'confirmed', HASH.h4, 21_000n, 2n * GWEI),
    mined('e5-3', '11:00:30', 'e5', 'reverted', HASH.h4, 21_000n, 3n * GWEI),
  ];
  // 50,000 gas × 20 gwei = 1e15 paid; 100,000 gas × 20 gwei = 2e15 burned.
  return [
    ...several,
    ...transaction('a1', '09', 'confirmed', 50_000n, 20n),
    ...transaction('b2', '10', 'reverted', 100_000n, 20n),
    row('c3-1', '2024-06-10T09:00:00Z', { ...batch, tx_stage: 'requested', tx_hash: null }),
    row('c3-2', '2024-06-10T09:00:01Z', { ...batch, tx_stage: 'submitted' }),
    receipt('c3-3', 50_000n),
    receipt('c3-4', 30_000n),
    row('c3-5', '2024-06-10T09:00:05.001Z', { ...batch, tx_stage: 'confirmed', gas_used: 80_000n }),
  ];
}

beforeAll(async () => {
  const { user, project } = await seed(test.services).user().verified().project('Burned share');
  owner = user;
  projectId = project.id;
  await storeRows(test.services.eventStore, events(projectId));
});

describe('receipt fees', () => {
  it('is rounded to 6 decimals, not cut', async () => {
    const answer = dataOf(
      await graphqlClient(test.app)(
        `query F($projectId: ID!, $from: DateTime, $to: DateTime) {
          failedTransactionCost(projectId: $projectId, from: $from, to: $to) {
            chains { chainId gasPaidWei gasBurnedWei burnedShare reverted failedBeforeSubmission }
          }
        }`,
        { projectId, from: '2024-05-01', to: '2024-06-01' },
        { token: owner.token },
      ),
    ).failedTransactionCost;
    expect(answer).toEqual({
      chains: [
        {
          chainId: 1,
          gasPaidWei: '3000000000000000',
          gasBurnedWei: '2000000000000000',
          burnedShare: 0.666667,
          reverted: 1,
          failedBeforeSubmission: 0,
        },
      ],
    });
  });

  it('adds up the receipts of a batch mined as several transactions, each hash once at its latest report in the range', async () => {
    const ask = async (query: string, variables: Record<string, unknown>) =>
      dataOf(await graphqlClient(test.app)(query, { projectId, ...variables }, { token: owner.token }));
    const cost = async (from: string, to: string) =>
      (
        await ask(
          `query F($projectId: ID!, $from: DateTime, $to: DateTime) {
            failedTransactionCost(projectId: $projectId, from: $from, to: $to) {
              chains { chainId gasPaidWei gasBurnedWei reverted }
              rows { day chainId contract selector reverted gasBurnedWei }
            }
          }`,
          { from, to },
        )
      ).failedTransactionCost;
    const paid = FEE.h1 + FEE.h2 + FEE.h3 + FEE.h4;
    const burned = FEE.h3 + FEE.h4;
    expect(await cost('2024-07-01', '2024-08-01')).toEqual({
      chains: [{ chainId: 8453, gasPaidWei: String(paid), gasBurnedWei: String(burned), reverted: 2 }],
      rows: [
        {
          day: '2024-07-10',
          chainId: 8453,
          contract: CONTRACT,
          selector: '0xa9059cbb',
          reverted: 2,
          gasBurnedWei: String(burned),
        },
      ],
    });
    // Ranges that end between two reports of one hash: the latest report within the range counts.
    expect(
      ((await cost('2024-07-10T10:00:00Z', '2024-07-10T10:00:06Z')) as { chains: unknown }).chains,
    ).toEqual([{ chainId: 8453, gasPaidWei: String(FEE.h1First), gasBurnedWei: '0', reverted: 0 }]);
    expect(
      ((await cost('2024-07-10T10:00:06Z', '2024-07-10T11:00:10Z')) as { chains: unknown }).chains,
    ).toEqual([
      {
        chainId: 8453,
        gasPaidWei: String(FEE.h1 + FEE.h2 + FEE.h3 + FEE.h4First),
        gasBurnedWei: String(FEE.h3),
        reverted: 1,
      },
    ]);
    const page = await ask(
      `query W($projectId: ID!, $address: String!) {
        wallet(projectId: $projectId, address: $address) { transactions gas { chainId gasPaidWei gasBurnedWei reverted } }
      }`,
      { address: OTHER_WALLET },
    );
    expect(page.wallet).toEqual({
      transactions: 2,
      gas: [{ chainId: 8453, gasPaidWei: String(paid), gasBurnedWei: String(burned), reverted: 2 }],
    });
    for (const sort of ['gas_paid', 'last_seen']) {
      const list = await ask(
        `query L($projectId: ID!, $from: DateTime, $to: DateTime, $sort: String) {
          wallets(projectId: $projectId, from: $from, to: $to, sort: $sort) { rows { address transactions failed gasPaidWei } }
        }`,
        { from: '2024-07-01', to: '2024-08-01', sort },
      );
      expect(list.wallets, sort).toEqual({
        rows: [{ address: OTHER_WALLET, transactions: 2, failed: 2, gasPaidWei: String(paid) }],
      });
    }
  });

  it('counts the latest receipt of a batch mined as several transactions: in one millisecond, the greatest id', async () => {
    const ask = async (query: string, variables: Record<string, unknown>) =>
      dataOf(await graphqlClient(test.app)(query, { projectId, ...variables }, { token: owner.token }));
    const cost = await ask(
      `query F($projectId: ID!, $from: DateTime, $to: DateTime) {
        failedTransactionCost(projectId: $projectId, from: $from, to: $to) { chains { chainId gasPaidWei reverted } }
      }`,
      { from: '2024-06-01', to: '2024-07-01' },
    );
    expect(cost.failedTransactionCost).toEqual({
      chains: [{ chainId: 10, gasPaidWei: '300000000000000', reverted: 0 }],
    });
    const page = await ask(
      `query W($projectId: ID!, $address: String!) {
        wallet(projectId: $projectId, address: $address) { transactions gas { chainId gasPaidWei gasBurnedWei } }
      }`,
      { address: WALLET },
    );
    expect(page.wallet).toEqual({
      transactions: 3,
      gas: [
        { chainId: 1, gasPaidWei: '3000000000000000', gasBurnedWei: '2000000000000000' },
        { chainId: 10, gasPaidWei: '300000000000000', gasBurnedWei: '0' },
      ],
    });
    // The Wallets list's gas paid, sorted by gas paid (every wallet's totals) and by last seen (the page's).
    for (const sort of ['gas_paid', 'last_seen']) {
      const list = await ask(
        `query L($projectId: ID!, $from: DateTime, $to: DateTime, $sort: String) {
          wallets(projectId: $projectId, from: $from, to: $to, sort: $sort) { rows { address transactions gasPaidWei } }
        }`,
        { from: '2024-06-01', to: '2024-07-01', sort },
      );
      expect(list.wallets).toEqual({
        rows: [{ address: WALLET, transactions: 1, gasPaidWei: '300000000000000' }],
      });
    }
  });
});
