import { describe, expect, it } from 'vitest';
import { storeRows } from '../support/event-stores.ts';
import { seed } from '../support/seed.ts';
import { eventRow, hashOf, txRows, W1, W2, W3 } from './events-fixture.ts';
import { dataOf } from './graphql-client.ts';
import { useAnalyticsWorld } from './setup.ts';

const world = useAnalyticsWorld();

const HISTORY = `query H($projectId: ID!, $from: DateTime, $to: DateTime, $first: Int, $after: String) {
  transactionHistory(projectId: $projectId, from: $from, to: $to, first: $first, after: $after) {
    rows { id hash time wallet type status chainId country browser }
    nextCursor
    total
  }
}`;

type Page = { rows: Record<string, unknown>[]; nextCursor: string | null; total: number };
const history = async (variables: Record<string, unknown>) =>
  dataOf(await world.gql(HISTORY, variables)).transactionHistory as Page;

describe('transactionHistory', () => {
  it('lists transactions newest first with hash, time, wallet, type, country and browser', async () => {
    const page = await history({ projectId: world.main, from: '2024-02-01', to: '2024-02-04' });
    expect(page.nextCursor).toBeNull();
    expect(page.rows.map((row) => row.id)).toEqual(['tx-6', 'tx-5', 'tx-3', 'tx-4', 'tx-2', 'tx-1']);
    expect(page.total).toBe(6);
    expect(page.rows[0]).toEqual({
      id: 'tx-6',
      hash: hashOf(6),
      time: '2024-02-03T15:00:00.000Z',
      wallet: W3,
      type: 'Coin',
      status: 'submitted',
      chainId: 31337,
      country: 'US',
      browser: 'Chrome',
    });
    expect(page.rows[4]).toMatchObject({
      id: 'tx-2',
      hash: null,
      wallet: W2,
      type: 'Contract',
      status: 'rejected',
    });
  });

  it('pages with cursors until the last page, without gaps or repeats', async () => {
    const seen: unknown[] = [];
    const totals: number[] = [];
    let after: string | null = null;
    let pages = 0;
    do {
      const page: Page = await history({ projectId: world.main, first: 3, after });
      seen.push(...page.rows.map((row) => row.id));
      totals.push(page.total);
      after = page.nextCursor;
      pages++;
    } while (after && pages < 10);
    // All time: tx-0 (Jan 31) is the oldest.
    expect(seen).toEqual(['tx-6', 'tx-5', 'tx-3', 'tx-4', 'tx-2', 'tx-1', 'tx-0']);
    expect(pages).toBe(3);
    // Every page says how many there are in all: the rows of every page, and the overview's count.
    expect(totals).toEqual([7, 7, 7]);
  });

  it('visits transactions requested in the same millisecond exactly once', async () => {
    const ids: unknown[] = [];
    let after: string | null = null;
    for (let i = 0; i < 5; i++) {
      const page: Page = await history({ projectId: world.sameInstant, first: 1, after });
      ids.push(...page.rows.map((row) => row.id));
      after = page.nextCursor;
      if (!after) break;
    }
    expect(ids).toEqual(['tx-c', 'tx-b', 'tx-a']);
  });

  it('answers an empty page for an empty project', async () => {
    expect(await history({ projectId: world.empty })).toEqual({ rows: [], nextCursor: null, total: 0 });
  });
});

const DETAIL = `query T($projectId: ID!, $hash: String, $id: String) {
  transaction(projectId: $projectId, hash: $hash, id: $id) {
    id hash time wallet type status chainId country browser from to value selector functionName nonce gasLimit
    gasUsed effectiveGasPrice fee blockNumber walletProvider os explorerUrl revertReason
    stages { stage time errorCode errorMessage }
  }
}`;

describe('transaction', () => {
  it('answers the full record by hash, with the explorer link of a known chain', async () => {
    const data = dataOf(
      await world.gql(DETAIL, { projectId: world.main, hash: hashOf(1).toUpperCase().replace('0X', '0x') }),
    );
    expect(data.transaction).toEqual({
      id: 'tx-1',
      hash: hashOf(1),
      time: '2024-02-01T09:10:00.000Z',
      wallet: W1,
      type: 'Contract',
      status: 'confirmed',
      chainId: 1,
      country: 'DE',
      browser: 'Chrome',
      from: W1,
      to: `0x${'c1'.repeat(20)}`,
      value: '0',
      selector: '0xa9059cbb',
      functionName: 'transfer(address,uint256)',
      nonce: '7',
      gasLimit: '60000',
      gasUsed: '50000',
      effectiveGasPrice: '20000000000',
      fee: '1000000000000000',
      blockNumber: '100',
      walletProvider: 'MetaMask',
      os: 'Linux',
      explorerUrl: `https://etherscan.io/tx/${hashOf(1)}`,
      revertReason: null,
      stages: [
        { stage: 'requested', time: '2024-02-01T09:10:00.000Z', errorCode: null, errorMessage: null },
        { stage: 'submitted', time: '2024-02-01T09:10:05.000Z', errorCode: null, errorMessage: null },
        { stage: 'confirmed', time: '2024-02-01T09:11:00.000Z', errorCode: null, errorMessage: null },
      ],
    });
  });

  it('has no explorer link on a local chain, and finds a hashless transaction by its id', async () => {
    const local = dataOf(await world.gql(DETAIL, { projectId: world.main, hash: hashOf(6) })).transaction;
    expect(local).toMatchObject({ chainId: 31337, explorerUrl: null, status: 'submitted', fee: null });
    const rejected = dataOf(await world.gql(DETAIL, { projectId: world.main, id: 'tx-2' })).transaction;
    expect(rejected).toMatchObject({
      hash: null,
      status: 'rejected',
      stages: [
        { stage: 'requested', errorCode: null },
        { stage: 'rejected', errorCode: 4001, errorMessage: 'User rejected the request.' },
      ],
    });
  });

  it('answers null for a hash the project does not have', async () => {
    expect(
      dataOf(await world.gql(DETAIL, { projectId: world.main, hash: hashOf(0xee) })).transaction,
    ).toBeNull();
    expect(
      dataOf(await world.gql(DETAIL, { projectId: world.empty, hash: hashOf(1) })).transaction,
    ).toBeNull();
  });
});

describe('transaction revert reason', () => {
  it("gives a failed or reverted transaction's reason: its stage's message, else the session's wallet revert error", async () => {
    const { user, project } = await seed(world.test.services).user().verified().project('Reverts');
    const stf = { error_source: 'wallet', error_code: -32000, rpc_method: 'eth_estimateGas' };
    await storeRows(world.test.services.eventStore, [
      // u2's session: the wallet's gas estimate reverted with STF 30 s before the request that then reverted.
      eventRow(project.id, '2024-02-02T09:59:30Z', 'u2', 'error', {
        ...stf,
        error_message: 'execution reverted: STF',
      }),
      ...txRows(project.id, {
        txId: 'tx-r1',
        user: 'u2',
        kind: 'contract',
        chainId: 137,
        hash: hashOf(0x31),
        stages: [
          ['requested', '2024-02-02T10:00:00Z'],
          ['submitted', '2024-02-02T10:00:05Z'],
          ['reverted', '2024-02-02T10:01:00Z'],
        ],
      }),
      // u3's session: a revert error 2 minutes before the request is too far to be this transaction's.
      eventRow(project.id, '2024-02-02T11:58:00Z', 'u3', 'error', {
        ...stf,
        error_message: 'execution reverted: K',
      }),
      ...txRows(project.id, {
        txId: 'tx-r2',
        user: 'u3',
        kind: 'contract',
        chainId: 1,
        hash: hashOf(0x32),
        stages: [
          ['requested', '2024-02-02T12:00:00Z'],
          ['submitted', '2024-02-02T12:00:05Z'],
          ['reverted', '2024-02-02T12:01:00Z'],
        ],
      }),
      // A failed send carries its own reason on the stage.
      ...txRows(project.id, {
        txId: 'tx-f1',
        user: 'u4',
        kind: 'coin',
        chainId: 8453,
        stages: [
          ['requested', '2024-02-02T08:05:00Z'],
          ['failed', '2024-02-02T08:05:02Z', { error_code: -32603, error_message: 'insufficient funds' }],
        ],
      }),
    ]);
    const reasonOf = async (variables: Record<string, unknown>, token = user.token) => {
      const answer = await world.gql(DETAIL, { projectId: project.id, ...variables }, token);
      return (dataOf(answer).transaction as { revertReason: unknown }).revertReason;
    };
    expect(await reasonOf({ hash: hashOf(0x31) })).toBe('execution reverted: STF');
    expect(await reasonOf({ hash: hashOf(0x32) })).toBeNull();
    expect(await reasonOf({ id: 'tx-f1' })).toBe('insufficient funds');
    // A confirmed transaction has none, even in a session with revert errors.
    expect(await reasonOf({ projectId: world.main, hash: hashOf(1) }, world.owner.token)).toBeNull();
  });
});
