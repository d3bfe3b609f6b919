import { expect } from '@playwright/test';
import type { TestChain } from '../../support/chain.ts';
import type { OwnedProject, PolyflowInstance } from './polyflow-instance.ts';

// What the e2e dapps saw, and the checks of what the console reads about them (sdk-dapps.spec.ts).

export type Hex = `0x${string}`;
/** What a dapp action resolved with: its value, or the error's public fields. */
export type Outcome = { ok?: unknown; error?: Record<string, unknown> };
/** Every action of one journey, by name. */
export type Journey = Record<string, Outcome>;

export const hashOf = (outcome: Outcome | undefined) => (outcome?.ok as { hash?: Hex } | undefined)?.hash;
export const batchHashes = (outcome: Outcome | undefined) =>
  ((outcome?.ok as { receipts?: { transactionHash: Hex }[] } | undefined)?.receipts ?? []).map(
    (receipt) => receipt.transactionHash,
  );

async function graphql<T>(
  polyflow: PolyflowInstance,
  project: OwnedProject,
  query: string,
  variables: Record<string, unknown>,
) {
  const response = await fetch(`${polyflow.url}/api/graphql`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${project.token}` },
    body: JSON.stringify({ query, variables }),
  });
  const body = (await response.json()) as { data: T; errors?: unknown };
  expect(body.errors).toBeUndefined();
  return body.data;
}

interface Detail {
  hash: string | null;
  status: string;
  gasUsed: string | null;
  fee: string | null;
  stages: { stage: string; errorCode: number | null; errorMessage: string | null }[];
  receipts: {
    hash: string | null;
    status: string;
    blockNumber: string | null;
    gasUsed: string;
    effectiveGasPrice: string;
    fee: string;
  }[];
}

const DETAIL = `query ($p: ID!, $h: String, $i: String) { transaction(projectId: $p, hash: $h, id: $i) {
  hash status gasUsed fee stages { stage errorCode errorMessage }
  receipts { hash status blockNumber gasUsed effectiveGasPrice fee } } }`;

/** Transaction History, the transaction pages and the overview, as the console reads them. */
export async function checkAnalytics(
  polyflow: PolyflowInstance,
  chain: TestChain,
  project: OwnedProject,
  journey: Journey,
) {
  const { transactionHistory, analyticsOverview } = await graphql<{
    transactionHistory: { rows: { id: string; hash: string | null; status: string }[] };
    analyticsOverview: { totalTransactions: number; failedTransactions: number; transactionFailRate: number };
  }>(
    polyflow,
    project,
    `query ($p: ID!) { transactionHistory(projectId: $p, first: 100) { rows { id hash status } }
      analyticsOverview(projectId: $p) { totalTransactions failedTransactions transactionFailRate } }`,
    { p: project.id },
  );
  const rows = transactionHistory.rows;
  // transfer, contract call, revert at estimation, revert on chain, rejection, batch.
  expect(rows.map((row) => row.status).sort()).toEqual(
    ['confirmed', 'confirmed', 'confirmed', 'failed', 'rejected', 'reverted'].sort(),
  );
  // Failed: the estimation revert and the on-chain revert, out of 5 attempts the user did not reject.
  expect(analyticsOverview).toEqual({
    totalTransactions: 6,
    failedTransactions: 2,
    transactionFailRate: 0.4,
  });

  const detail = async (key: { h?: string; i?: string }) =>
    (await graphql<{ transaction: Detail }>(polyflow, project, DETAIL, { p: project.id, ...key }))
      .transaction;
  for (const [action, status] of [
    ['transfer', 'success'],
    ['contractCall', 'success'],
    ['revertOnChain', 'reverted'],
  ] as const) {
    const hash = hashOf(journey[action]) as Hex;
    const receipt = await chain.receipt(hash);
    expect(receipt.status).toBe(status);
    const stored = await detail({ h: hash });
    expect(stored, action).toMatchObject({
      hash,
      status: status === 'success' ? 'confirmed' : 'reverted',
      gasUsed: String(receipt.gasUsed),
      fee: String(receipt.gasUsed * receipt.effectiveGasPrice),
    });
  }
  const failed = await detail({ i: rows.find((row) => row.status === 'failed')?.id });
  expect(failed.hash).toBeNull();
  expect(failed.stages.at(-1)?.errorMessage).toContain('DemoStore: value must not be zero');
  const rejected = await detail({ i: rows.find((row) => row.status === 'rejected')?.id });
  expect(rejected.stages.at(-1)).toMatchObject({ stage: 'rejected', errorCode: 4001 });

  // The batch: one transaction, found by any of its receipts' hashes, with the total gas of its receipts.
  const hashes = batchHashes(journey.batch);
  expect(hashes).toHaveLength(2);
  const receipts = await Promise.all(hashes.map((hash) => chain.receipt(hash)));
  const batch = await detail({ h: hashes[0] });
  expect(await detail({ h: hashes[1] })).toEqual(batch);
  expect(batch.status).toBe('confirmed');
  expect(batch.gasUsed).toBe(String(receipts.reduce((sum, receipt) => sum + receipt.gasUsed, 0n)));
  // Its fee: each receipt's gas at its own price (the chain's base fee moves from block to block).
  expect(batch.fee).toBe(
    String(receipts.reduce((sum, receipt) => sum + receipt.gasUsed * receipt.effectiveGasPrice, 0n)),
  );
  // Each of its receipts as the chain has it (the wallet may report both in one millisecond: compared by hash).
  const byHash = <T extends { hash: string | null }>(list: T[]) =>
    [...list].sort((a, b) => String(a.hash).localeCompare(String(b.hash)));
  expect(byHash(batch.receipts)).toEqual(
    byHash(
      receipts.map((receipt) => ({
        hash: receipt.transactionHash,
        status: 'confirmed',
        blockNumber: String(receipt.blockNumber),
        gasUsed: String(receipt.gasUsed),
        effectiveGasPrice: String(receipt.effectiveGasPrice),
        fee: String(receipt.gasUsed * receipt.effectiveGasPrice),
      })),
    ),
  );
  expect(batch.stages.map((stage) => stage.stage)).toEqual([
    'requested',
    'requested',
    'submitted',
    'confirmed',
    'confirmed',
    'confirmed',
  ]);
}
