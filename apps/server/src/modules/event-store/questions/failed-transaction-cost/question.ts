import { z } from 'zod';
import { count, numberOrNull } from '../../rows.ts';
import type { ChainGas, FailedCostRow, FailedTransactionCost } from '../../wallet-questions.ts';

/**
 * Failed-transaction cost (docs/wallets.md, "What failed transactions cost"): the receipts logged in the
 * range (a transaction's latest `confirmed` and latest `reverted` stage event with gas used and an
 * effective gas price), gas paid = Σ gas_used × effective_gas_price per chain, gas burned = the same over
 * the reverted receipts, also per day of the project's time zone (UTC days in a UTC project), chain, contract (`to`) and function (selector). Transactions
 * with a `failed` stage logged in the range were refused before submission: counted apart, no gas.
 */

export type ChainFacts = {
  chainId: number | null;
  paid: string;
  burned: string;
  reverted: number;
};

/** The receipts' and the refusals' figures per chain, merged, most gas paid first. */
export function mergeChains(
  receipts: readonly ChainFacts[],
  refusals: readonly { chainId: number | null; failed: number }[],
): ChainGas[] {
  const byChain = new Map<number | null, ChainGas>();
  for (const row of receipts) {
    byChain.set(row.chainId, {
      chainId: row.chainId,
      gasPaidWei: row.paid,
      gasBurnedWei: row.burned,
      reverted: row.reverted,
      failedBeforeSubmission: 0,
    });
  }
  for (const row of refusals) {
    const chain = byChain.get(row.chainId) ?? {
      chainId: row.chainId,
      gasPaidWei: '0',
      gasBurnedWei: '0',
      reverted: 0,
      failedBeforeSubmission: 0,
    };
    chain.failedBeforeSubmission = row.failed;
    byChain.set(row.chainId, chain);
  }
  return [...byChain.values()].sort(
    (a, b) =>
      compareWei(b.gasPaidWei, a.gasPaidWei) ||
      (a.chainId ?? Number.MAX_SAFE_INTEGER) - (b.chainId ?? Number.MAX_SAFE_INTEGER),
  );
}

export const compareWei = (a: string, b: string) => {
  const difference = BigInt(a) - BigInt(b);
  return difference > 0n ? 1 : difference < 0n ? -1 : 0;
};

/** Rows most gas burned first, then by day, chain, contract and function. */
export function sortRows(rows: FailedCostRow[]): FailedCostRow[] {
  return rows.sort(
    (a, b) =>
      compareWei(b.gasBurnedWei, a.gasBurnedWei) ||
      a.day.localeCompare(b.day) ||
      (a.chainId ?? 0) - (b.chainId ?? 0) ||
      (a.contract ?? '').localeCompare(b.contract ?? '') ||
      (a.selector ?? '').localeCompare(b.selector ?? ''),
  );
}

export const result = (chains: ChainGas[], rows: FailedCostRow[]): FailedTransactionCost => ({
  chains,
  rows: sortRows(rows),
});

/** The transactions the wallet failed to send, per chain, as both engines answer them. */
export const RefusalRow = z.object({ chain: numberOrNull, failed: count });
