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
  // 50,000 gas × 20 gwei = 1e15 paid; 100,000 gas × 20 gwei = 2e15 burned.
  return [
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
