import { z } from 'zod';
import type { AlertWindow } from '../../alert-questions.ts';
import { count } from '../../rows.ts';

/** A window's (or bucket's) transactions by outcome, as transactionOutcomes counts them. */
export type AlertTxOutcome = {
  window: number;
  bucket: number;
  total: number;
  submitted: number;
  failed: number;
  attempted: number;
};

/**
 * Transactions per window and bucket of their time, by outcome, for many projects at once: the
 * definitions of `transactionOutcomes` (docs/analytics.md#transactions): a transaction's time is its first
 * stage's, its status its latest stage, its stages read one stage window (TX_STAGE_WINDOW_MS) beyond the
 * windows' span. The fail rate of a window is failed / attempted, the console's Transaction Fail Rate of
 * the same range. Buckets without a transaction are absent.
 */
export type AlertTxOutcomesQuestion = {
  alertTxOutcomes(windows: readonly AlertWindow[]): Promise<AlertTxOutcome[]>;
};

export const AlertTxOutcomeRow = z.object({
  window_index: count,
  bucket: count,
  total: count,
  submitted: count,
  failed: count,
  attempted: count,
});

export const txOutcomeOf = ({
  window_index,
  ...counts
}: z.infer<typeof AlertTxOutcomeRow>): AlertTxOutcome => ({
  window: window_index,
  ...counts,
});
