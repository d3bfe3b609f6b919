import type { ChainGas } from '../../wallet-questions.ts';

/**
 * A wallet's profile (docs/wallets.md, "The wallet page"), all time: the events that carry it (as the
 * connected wallet or a transaction's sender, as forgetting a wallet deletes them), its transactions (a
 * transaction is the wallet's when the sender of its first stage, or the wallet connected then, is it),
 * their latest stages, and their receipts' gas per chain; the first touch is the landing of the session of
 * its first event: that session's landing UTM and its first page view's referrer and path.
 */

export const CARRIES_WALLET = '(wallet_address = {wallet} OR tx_from = {wallet})';

/** Sorted distinct non-empty values. */
export const sortedValues = <T extends string | number>(values: readonly (T | null)[]): T[] =>
  [...new Set(values.filter((value): value is T => value !== null && value !== ''))].sort((a, b) =>
    typeof a === 'number' && typeof b === 'number' ? a - b : String(a).localeCompare(String(b)),
  );

export type ProfileGasRow = {
  chainId: number | null;
  paid: string;
  burned: string;
  reverted: number;
  failed: number;
};

export const gasOf = (rows: readonly ProfileGasRow[]): ChainGas[] =>
  rows
    .map((row) => ({
      chainId: row.chainId,
      gasPaidWei: row.paid,
      gasBurnedWei: row.burned,
      reverted: row.reverted,
      failedBeforeSubmission: row.failed,
    }))
    .sort((a, b) => (a.chainId ?? Number.MAX_SAFE_INTEGER) - (b.chainId ?? Number.MAX_SAFE_INTEGER));
