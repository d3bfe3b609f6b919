import { type ClickHouse, deleteRows, type Params } from './client.ts';
import { contractDaysOfEvents } from './contract-days.ts';
import { dayOfParam, eventsOnDayOf, type SessionDayKey } from './session-days.ts';
import {
  EVENTS_IN_TRANSACTION_KEYS,
  IN_TRANSACTION_KEYS,
  type TransactionDayKey,
  transactionDayKeyParams,
  transactionDaysOfEvents,
} from './transaction-days.ts';
import { transactionReceiptsOfEvents } from './transaction-receipts.ts';
import { userLivesOfUserDays } from './user-lives.ts';
import {
  EVENTS_IN_WALLET_KEYS,
  IN_WALLET_KEYS,
  type WalletDayKey,
  walletDayKeyParams,
  walletDaysOfEvents,
} from './wallet-days.ts';
import { walletFirstsOfWalletDays } from './wallet-firsts.ts';
import { walletListTransactionsOfEvents } from './wallet-list-transactions.ts';
import { walletSentTransactionsOfEvents } from './wallet-sent-transactions.ts';

/**
 * Which rows of `user_days`, `session_days`, `wallet_days` (then `wallet_firsts`), `user_lives`,
 * `transaction_days` and `contract_days` a delete
 * of events can leave without an event behind them, and how to find them again: a user-day stays while
 * any of the user's events of that day stays; a session-day, a wallet-day and a transaction-day hold what
 * the events of that session, wallet or transaction and day that stay hold (`contract_days` follows
 * `transaction_days`' keys).
 * A user's life is rebuilt from their `user_days`, once those are in line.
 * - `all`: the delete takes every event of those rows (a project, a user): their rows go. `wallet_days`
 *   and `transaction_days` have no user column: a user's delete names the wallet-days and
 *   transaction-days its events were in (read before the delete), rebuilt from the events that stay; a
 *   project's (`where` on the project alone) deletes them.
 * - `days`: retention, every event before `before`: the days before its day go, and its own day is
 *   rebuilt from the events that stay; the project's lives are rebuilt (most start before the cut).
 * - `users`: forgetting a wallet: the users seen with it, and the session-days, wallet-days and
 *   transaction-days its events were in (all read before the delete), are rebuilt from the events that
 *   stay.
 */
export type DerivedRowsChange =
  | {
      kind: 'all';
      where: string;
      walletDays: 'where' | readonly WalletDayKey[];
      transactionDays: 'where' | readonly TransactionDayKey[];
    }
  | { kind: 'days'; beforeParam: string }
  | {
      kind: 'users';
      userIds: readonly string[];
      sessionDays: readonly SessionDayKey[];
      walletDays: readonly WalletDayKey[];
      transactionDays: readonly TransactionDayKey[];
    };

/**
 * `wallet_days`, `user_lives` and `transaction_days` (ADR 031–033) brought in line with the events that
 * stay after a delete (`DerivedRowsChange`, derived-tables.ts, which runs these after `user_days` is in
 * line): the rows of the days and keys the delete touched are deleted, then rebuilt from what stays.
 */

export async function alignWalletDays(clickhouse: ClickHouse, params: Params, change: DerivedRowsChange) {
  if (change.kind === 'days') {
    const day = dayOfParam(change.beforeParam);
    await deleteRows(clickhouse, 'wallet_days', `project_id = {project:String} AND day <= ${day}`, params);
    await clickhouse.command(
      `INSERT INTO wallet_days ${walletDaysOfEvents(eventsOnDayOf(change.beforeParam))}`,
      params,
    );
    return;
  }
  if (change.kind === 'all' && change.walletDays === 'where') {
    await deleteRows(clickhouse, 'wallet_days', change.where, params);
    return;
  }
  const walletDays = change.walletDays === 'where' ? [] : change.walletDays;
  if (walletDays.length === 0) return;
  const keys = { ...params, ...walletDayKeyParams(walletDays) };
  await deleteRows(clickhouse, 'wallet_days', IN_WALLET_KEYS, keys);
  await clickhouse.command(`INSERT INTO wallet_days ${walletDaysOfEvents(EVENTS_IN_WALLET_KEYS)}`, keys);
}

/**
 * `wallet_firsts` (ADR 046) in line with `wallet_days`, once that is: a project's rows go with its
 * events; after retention the project's rows are rebuilt from its `wallet_days`; after a user's or a
 * wallet's delete, those of the wallets of the wallet-days it touched. The rows `alignWalletDays`
 * inserted reached this table through its view, and are deleted and rebuilt with the rest.
 */
export async function alignWalletFirsts(clickhouse: ClickHouse, params: Params, change: DerivedRowsChange) {
  const project = 'project_id = {project:String}';
  const rebuild = async (rows: string, rowParams: Params) => {
    await deleteRows(clickhouse, 'wallet_firsts', rows, rowParams);
    await clickhouse.command(`INSERT INTO wallet_firsts ${walletFirstsOfWalletDays(rows)}`, rowParams);
  };
  if (change.kind === 'days') return rebuild(project, params);
  if (change.kind === 'all' && change.walletDays === 'where') {
    await deleteRows(clickhouse, 'wallet_firsts', change.where, params);
    return;
  }
  const walletDays = change.walletDays === 'where' ? [] : change.walletDays;
  const wallets = [...new Set(walletDays.map((key) => key.wallet))];
  if (wallets.length === 0) return;
  await rebuild(`${project} AND has({wallets:Array(String)}, wallet)`, { ...params, wallets });
}

export async function alignUserLives(clickhouse: ClickHouse, params: Params, change: DerivedRowsChange) {
  const project = 'project_id = {project:String}';
  if (change.kind === 'all') {
    await deleteRows(clickhouse, 'user_lives', change.where, params);
    return;
  }
  if (change.kind === 'days') {
    await deleteRows(clickhouse, 'user_lives', project, params);
    await clickhouse.command(`INSERT INTO user_lives ${userLivesOfUserDays(project)}`, params);
    return;
  }
  if (change.userIds.length === 0) return;
  const users = { ...params, users: change.userIds };
  const ofUsers = `${project} AND has({users:Array(String)}, user_id)`;
  await deleteRows(clickhouse, 'user_lives', ofUsers, users);
  await clickhouse.command(`INSERT INTO user_lives ${userLivesOfUserDays(ofUsers)}`, users);
}

export async function alignTransactionDays(
  clickhouse: ClickHouse,
  params: Params,
  change: DerivedRowsChange,
) {
  await alignByTransactionDays(clickhouse, params, change, 'transaction_days', transactionDaysOfEvents);
}

/** `contract_days` (ADR 038): keyed as `transaction_days`, so the same transaction-days name its rows. */
export async function alignContractDays(clickhouse: ClickHouse, params: Params, change: DerivedRowsChange) {
  await alignByTransactionDays(clickhouse, params, change, 'contract_days', contractDaysOfEvents);
}

/**
 * The Wallets list's tables of transaction-days, `wallet_list_transactions` (ADR 110) and
 * `wallet_sent_transactions` (ADR 125, the sender beside the key), keyed as `transaction_days`: a
 * project's rows go with it; retention deletes the days before its cut and rebuilds its day; a user's or a
 * wallet's delete rebuilds the (UTC day, transaction) keys its events were in, from the stages that stay
 * (a forgotten wallet's stages are gone, so no row of the second names it).
 */
export async function alignWalletListTransactions(
  clickhouse: ClickHouse,
  params: Params,
  change: DerivedRowsChange,
) {
  const tables = [
    ['wallet_list_transactions', walletListTransactionsOfEvents],
    ['wallet_sent_transactions', walletSentTransactionsOfEvents],
  ] as const;
  for (const [table, ofEvents] of tables)
    await alignByTransactionDays(clickhouse, params, change, table, ofEvents);
}

/** `transaction_receipts` (ADR 129): its rows carry `transaction_days`' (day, transaction) keys. */
export async function alignTransactionReceipts(
  clickhouse: ClickHouse,
  params: Params,
  change: DerivedRowsChange,
) {
  await alignByTransactionDays(
    clickhouse,
    params,
    change,
    'transaction_receipts',
    transactionReceiptsOfEvents,
  );
}

/** A table keyed by (project, day, tx_id), whose rows for the events a condition names `ofEvents` builds. */
async function alignByTransactionDays(
  clickhouse: ClickHouse,
  params: Params,
  change: DerivedRowsChange,
  table: string,
  ofEvents: (where: string) => string,
) {
  if (change.kind === 'days') {
    const day = dayOfParam(change.beforeParam);
    await deleteRows(clickhouse, table, `project_id = {project:String} AND day <= ${day}`, params);
    await clickhouse.command(`INSERT INTO ${table} ${ofEvents(eventsOnDayOf(change.beforeParam))}`, params);
    return;
  }
  if (change.kind === 'all' && change.transactionDays === 'where') {
    await deleteRows(clickhouse, table, change.where, params);
    return;
  }
  const transactionDays = change.transactionDays === 'where' ? [] : change.transactionDays;
  if (transactionDays.length === 0) return;
  const keys = { ...params, ...transactionDayKeyParams(transactionDays) };
  await deleteRows(clickhouse, table, IN_TRANSACTION_KEYS, keys);
  await clickhouse.command(`INSERT INTO ${table} ${ofEvents(EVENTS_IN_TRANSACTION_KEYS)}`, keys);
}
