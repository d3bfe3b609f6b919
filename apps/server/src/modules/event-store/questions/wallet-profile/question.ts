import { z } from 'zod';
import type { ChainGas, WalletProfile } from '../../wallet-questions.ts';

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

/** The rows both engines answer: the wallet's facts, its first session's touch, its gas per chain, its days. */
export const text = z.string().nullable();
export const FactsRow = z.object({
  events: z.coerce.number(),
  first_ms: z.coerce.number(),
  last_ms: z.coerce.number(),
  connected_ms: z.coerce.number().nullable(),
  first_session: z.string(),
  countries: z.array(text),
  browsers: z.array(text),
  providers: z.array(text),
  chains: z.array(z.coerce.number().nullable()),
  sessions: z.coerce.number(),
});
export const TouchRow = z.object({
  source: text,
  medium: text,
  campaign: text,
  referrer: text,
  landing_path: text,
});
export const DayRow = z.object({ day: z.string() });
export const GasRow = z.object({
  chain: z.coerce.number().nullable(),
  paid: z.string(),
  burned: z.string(),
  reverted: z.coerce.number(),
  failed: z.coerce.number(),
  transactions: z.coerce.number(),
});

export function profileOf(
  facts: z.infer<typeof FactsRow>,
  touch: z.infer<typeof TouchRow> | undefined,
  gas: z.infer<typeof GasRow>[],
  days: z.infer<typeof DayRow>[],
): WalletProfile {
  return {
    firstSeenMs: facts.first_ms,
    lastSeenMs: facts.last_ms,
    firstConnectedMs: facts.connected_ms,
    firstTouch: touch
      ? {
          source: touch.source,
          medium: touch.medium,
          campaign: touch.campaign,
          referrer: touch.referrer,
          landingPath: touch.landing_path,
        }
      : null,
    countries: sortedValues(facts.countries),
    browsers: sortedValues(facts.browsers),
    providers: sortedValues(facts.providers),
    chains: sortedValues(facts.chains),
    sessions: facts.sessions,
    activeDays: days.map((row) => row.day),
    // One query for the totals and the gas: the per-chain rows add up to the wallet's.
    transactions: gas.reduce((total, row) => total + row.transactions, 0),
    failedBeforeSubmission: gas.reduce((total, row) => total + row.failed, 0),
    reverted: gas.reduce((total, row) => total + row.reverted, 0),
    gas: gasOf(gas.map((row) => ({ ...row, chainId: row.chain }))),
  };
}
