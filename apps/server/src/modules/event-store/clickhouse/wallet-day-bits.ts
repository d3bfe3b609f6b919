import type { DerivedRowsChange } from './aligned-tables.ts';
import { type ClickHouse, deleteRows, type Params } from './client.ts';
import { dayOfParam } from './session-days.ts';

const DAY_MS = 86_400_000;

/**
 * `wallet_day_bits`: one row per (project, block of 64 UTC days, wallet) with the wallet's active days of
 * that block as the bits of one UInt64 (bit i: the block's day i; days numbered from 1970-01-01, block
 * `intDiv(day, 64)`), so that the Wallets list's lifecycle facts (active days in the stages' 56-day window,
 * docs/wallets.md) read at most two rows per wallet instead of one per wallet-day of its history
 * (docs/decisions/114). An AggregatingMergeTree of `groupBitOr`s fed by a materialized view on
 * `wallet_list_days` (one row per wallet-day, ADR 110), as `wallet_firsts` is on `wallet_days`: every row
 * reaching that table (a load, a rebuild after a delete, a migration's copy) sets its day's bit in the same
 * statement; a day set twice is set. Nothing reads it with FINAL: the readers fold the bits again. A delete
 * takes bits away, so `alignWalletDayBits` rebuilds the touched (block, wallet) rows from
 * `wallet_list_days` once that table is in line.
 */

/** Days in a block: the bits of a UInt64. */
export const DAY_BITS_BLOCK_DAYS = 64;

/** A day's number since 1970-01-01 (`Date` is stored so). */
const dayNumber = (day: string) => `toUInt16(${day})`;

export const CREATE_WALLET_DAY_BITS = `CREATE TABLE IF NOT EXISTS wallet_day_bits (
  project_id String,
  block UInt16,
  wallet String,
  days SimpleAggregateFunction(groupBitOr, UInt64)
) ENGINE = AggregatingMergeTree
ORDER BY (project_id, block, wallet)`;

/** The rows of `wallet_day_bits` for the `wallet_list_days` rows a SELECT reads (`where`: conditions on them). */
export const walletDayBitsOfListDays = (where = '') =>
  `SELECT project_id, toUInt16(intDiv(${dayNumber('day')}, ${DAY_BITS_BLOCK_DAYS})) AS block, wallet,
         groupBitOr(bitShiftLeft(toUInt64(1), ${dayNumber('day')} % ${DAY_BITS_BLOCK_DAYS})) AS days
    FROM wallet_list_days${where ? `\n   WHERE ${where}` : ''}
   GROUP BY project_id, block, wallet`;

/**
 * Version 29: the table, the view that feeds it, then the bits of what `wallet_list_days` holds (a row
 * reaching both meanwhile sets a bit already set), sorted by the key, merged into one part (schema.ts).
 */
export const WALLET_DAY_BITS_STATEMENTS = [
  CREATE_WALLET_DAY_BITS,
  `CREATE MATERIALIZED VIEW IF NOT EXISTS wallet_day_bits_of_list_days TO wallet_day_bits AS
${walletDayBitsOfListDays()}`,
  `INSERT INTO wallet_day_bits ${walletDayBitsOfListDays()}
   ORDER BY project_id, block, wallet`,
];

/** Version 29's copies (with `wallet_touches`), merged into one part each as the other tables (ADR 097). */
export async function mergeWalletDayBits(clickhouse: ClickHouse): Promise<void> {
  await clickhouse.command('OPTIMIZE TABLE wallet_day_bits FINAL');
  await clickhouse.command('OPTIMIZE TABLE wallet_touches FINAL');
}

/** The block of a `wallet_list_days` row. */
const BLOCK_OF_DAY = `toUInt16(intDiv(${dayNumber('day')}, ${DAY_BITS_BLOCK_DAYS}))`;

/**
 * `wallet_day_bits` in line with `wallet_list_days`, once that is (`alignWalletListDays`): a project's
 * rows go with its events; after retention the project's blocks up to the cut's are rebuilt; after a
 * user's or a wallet's delete, the (block, wallet) rows of the wallet-days it touched. The rows the
 * alignment of `wallet_list_days` inserted reached this table through its view, and are deleted and
 * rebuilt with the rest.
 */
export async function alignWalletDayBits(clickhouse: ClickHouse, params: Params, change: DerivedRowsChange) {
  const project = 'project_id = {project:String}';
  /** Deletes the rows `block` names (a condition on a block expression) and rebuilds them. */
  const rebuild = async (rows: (block: string) => string, rowParams: Params) => {
    await deleteRows(clickhouse, 'wallet_day_bits', `${project} AND ${rows('block')}`, rowParams);
    await clickhouse.command(
      `INSERT INTO wallet_day_bits ${walletDayBitsOfListDays(`${project} AND ${rows(BLOCK_OF_DAY)}`)}`,
      rowParams,
    );
  };
  if (change.kind === 'days') {
    const cutBlock = `toUInt16(intDiv(${dayNumber(dayOfParam(change.beforeParam))}, ${DAY_BITS_BLOCK_DAYS}))`;
    return rebuild((block) => `${block} <= ${cutBlock}`, params);
  }
  if (change.kind === 'all' && change.walletDays === 'where') {
    await deleteRows(clickhouse, 'wallet_day_bits', change.where, params);
    return;
  }
  const walletDays = change.walletDays === 'where' ? [] : change.walletDays;
  const keys = new Map<string, { block: number; wallet: string }>();
  for (const { day, wallet } of walletDays) {
    const block = Math.floor(Date.parse(`${day}T00:00:00Z`) / DAY_MS / DAY_BITS_BLOCK_DAYS);
    keys.set(`${block} ${wallet}`, { block, wallet });
  }
  if (keys.size === 0) return;
  await rebuild(
    (block) =>
      `has(arrayZip(arrayMap(b -> toUInt16(b), {bit_blocks:Array(String)}), {bit_wallets:Array(String)}), (${block}, wallet))`,
    {
      ...params,
      bit_blocks: [...keys.values()].map((key) => String(key.block)),
      bit_wallets: [...keys.values()].map((key) => key.wallet),
    },
  );
}
