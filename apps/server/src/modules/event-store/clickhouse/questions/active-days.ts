import { z } from 'zod';
import { previousPeriod, type TimeRange } from '../../../../reading/time-range.ts';
import type { ActiveDays } from '../../analytics-questions.ts';
import type { ClickHouse, Params } from '../client.ts';
import { dayParts } from '../day-parts.ts';

const DaysRow = z.object({
  wallet_days: z.coerce.number(),
  user_days: z.coerce.number(),
  previous_wallet_days: z.coerce.number(),
});

/**
 * Distinct (UTC day, value) pairs of a period's events: its whole days from a table kept per (project,
 * day, value), its partial days at the ends from `events` (a partly covered day counts the values of its
 * covered part). The parts cover different days, so their counts add up. Distinct counts on both sides:
 * a row or an event stored twice counts once (no FINAL).
 */
function daysOfValues(
  range: TimeRange,
  prefix: string,
  table: { name: string; value: string },
  event: { value: string; where: string },
): { sql: string; params: Params } {
  const parts = dayParts(range, prefix);
  const counts: string[] = [];
  if (parts.wholeDays)
    counts.push(`(SELECT uniqExact(day, ${table.value}) FROM ${table.name}
              WHERE project_id = {project:String} AND ${parts.wholeDays})`);
  if (parts.partialDays)
    counts.push(`(SELECT uniqExact(toDate(ts, 'UTC'), ${event.value}) FROM events
              WHERE project_id = {project:String} AND ${event.where}${parts.partialDays})`);
  return { sql: counts.join(' + '), params: parts.params };
}

/** Wallet-days: `wallet_days` (docs/decisions/031). */
const walletDays = (range: TimeRange, prefix: string) =>
  daysOfValues(
    range,
    prefix,
    { name: 'wallet_days', value: 'wallet' },
    { value: 'assumeNotNull(wallet_address)', where: 'wallet_address IS NOT NULL AND ' },
  );

/** User-days: `user_days` (ADR 026). */
const userDays = (range: TimeRange, prefix: string) =>
  daysOfValues(range, prefix, { name: 'user_days', value: 'user_id' }, { value: 'user_id', where: '' });

/**
 * Wallet-days and user-days in the range, and wallet-days in the period before it: the numerators of
 * the per-day averages.
 */
export async function activeDays(
  clickhouse: ClickHouse,
  projectId: string,
  range: TimeRange,
  previousRange: TimeRange = previousPeriod(range),
): Promise<ActiveDays> {
  const wallets = walletDays(range, 'wallets_');
  const users = userDays(range, 'users_');
  const previousWallets = walletDays(previousRange, 'previous_');
  const [row] = await clickhouse.rows(
    `SELECT ${wallets.sql} AS wallet_days,
            ${users.sql} AS user_days,
            ${previousWallets.sql} AS previous_wallet_days`,
    { project: projectId, ...wallets.params, ...users.params, ...previousWallets.params },
    DaysRow,
  );
  return {
    walletDays: row?.wallet_days ?? 0,
    userDays: row?.user_days ?? 0,
    previousWalletDays: row?.previous_wallet_days ?? 0,
  };
}
