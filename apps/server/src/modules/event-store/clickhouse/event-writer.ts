import { createReadStream } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { z } from 'zod';
import type { EventWriter } from '../event-store.ts';
import { BATCH_RECORD_PREFIX } from '../log-records.ts';
import { type ClickHouse, isClickHouseError, type Params } from './client.ts';
import { type DerivedRowsChange, deleteDerivedRows } from './derived-tables.ts';
import { type SessionDayKey, sessionDayKeysOf } from './session-days.ts';
import { EVENTS } from './sql.ts';
import { type TransactionDayKey, transactionDayKeysOf } from './transaction-days.ts';
import { type WalletDayKey, walletDayKeysOf } from './wallet-days.ts';

/**
 * ClickHouse's error codes for a record's content: text that does not parse as JSON or as the column's type,
 * a missing required field (NULL into a column without NULL), a number out of its type's range. A load
 * failing with one of these fails the same way again; anything else (network, a full disk, the server
 * down) may pass on a retry.
 */
const RECORD_ERROR_CODES = new Set([
  6, // CANNOT_PARSE_TEXT
  26, // CANNOT_PARSE_QUOTED_STRING
  27, // CANNOT_PARSE_INPUT_ASSERTION_FAILED
  32, // ATTEMPT_TO_READ_AFTER_EOF
  33, // CANNOT_READ_ALL_DATA
  38, // CANNOT_PARSE_DATE
  41, // CANNOT_PARSE_DATETIME
  53, // TYPE_MISMATCH
  69, // ARGUMENT_OUT_OF_BOUND
  70, // CANNOT_CONVERT_TYPE
  72, // CANNOT_PARSE_NUMBER
  117, // INCORRECT_DATA
  321, // VALUE_IS_OUT_OF_RANGE_OF_DATA_TYPE
  349, // CANNOT_INSERT_NULL_IN_ORDINARY_COLUMN
  407, // DECIMAL_OVERFLOW
]);

const SessionDayKeyRow: z.ZodType<SessionDayKey> = z.object({
  day: z.string(),
  session_id: z.string(),
  user_id: z.string(),
});

const WalletDayKeyRow: z.ZodType<WalletDayKey> = z.object({ day: z.string(), wallet: z.string() });
const TransactionDayKeyRow: z.ZodType<TransactionDayKey> = z.object({ day: z.string(), tx: z.string() });

/**
 * Whether a segment holds a batch record (a log left by a version before ADR 021): only then does it go
 * through `incoming_records` and both views; rows records alone go through `incoming_rows`. A scan of the
 * bytes for a line starting as a batch record does, not a parse.
 */
async function holdsBatchRecords(file: string): Promise<boolean> {
  const content = await readFile(file);
  return (
    content.subarray(0, BATCH_RECORD_PREFIX.length).toString() === BATCH_RECORD_PREFIX ||
    content.includes(`\n${BATCH_RECORD_PREFIX}`)
  );
}

/**
 * Segment loads and deletes, one at a time and in call order (close() waits for the one under way). The
 * segment file is streamed to ClickHouse as it is; its materialized views map the records to rows
 * (segment-rows.ts).
 */
export function createEventWriter(clickhouse: ClickHouse) {
  let isClosed = false;
  let writes: Promise<unknown> = Promise.resolve();
  function serialWrite<T>(task: () => Promise<T>): Promise<T> {
    const run = writes.then(() => {
      if (isClosed) throw new Error('event store is closed');
      return task();
    });
    writes = run.catch(() => undefined);
    return run;
  }

  // A lightweight DELETE hides the rows at once (a mask) and answers when that holds on every replica;
  // merges drop them from disk later. It does not say how many rows it hid, so the events are counted
  // first (FINAL: an event loaded twice counts once), in the same turn of the write queue: no load of
  // this store comes in between. None found: no DELETE (an hourly retention pass that finds nothing old
  // costs one count). The derived tables follow in the same turn (derived-tables.ts).
  const deleteWhere = (where: string, params: Params, derivedChange: () => Promise<DerivedRowsChange>) =>
    serialWrite(async () => {
      const [counted] = await clickhouse.rows(
        `SELECT count() AS deleted FROM ${EVENTS} WHERE ${where}`,
        params,
        z.object({ deleted: z.coerce.number() }),
      );
      const deleted = counted?.deleted ?? 0;
      if (deleted === 0) return 0;
      const change = await derivedChange();
      await clickhouse.client.command({
        query: `DELETE FROM events WHERE ${where}`,
        query_params: params,
        clickhouse_settings: { lightweight_deletes_sync: '2' },
      });
      await deleteDerivedRows(clickhouse, where, params, change);
      return deleted;
    });

  const writer: EventWriter & { close(): Promise<void> } = {
    loadSegment(file) {
      return serialWrite(async () => {
        const table = (await holdsBatchRecords(file)) ? 'incoming_records' : 'incoming_rows';
        await clickhouse.client
          .exec({
            query: `INSERT INTO ${table} FORMAT JSONEachRow`,
            values: createReadStream(file),
            clickhouse_settings: {
              input_format_skip_unknown_fields: 1,
              // A record is a line; one that does not parse fails the load (the loader quarantines it).
              input_format_allow_errors_num: '0',
              // No collapsing of duplicate keys within the insert: FINAL at read time and the background
              // merges already keep one row per key (a new part may hold an event twice), and collapsing
              // a block row by row was most of an insert's cost (2.2 s instead of 0.9 s of CPU per 100,000
              // events through chdb; ADR 022).
              optimize_on_insert: 0,
            },
          })
          .then(async ({ stream }) => {
            stream.resume();
            await new Promise<void>((resolve, reject) => {
              stream.once('end', resolve);
              stream.once('error', reject);
            });
          });
      });
    },

    isRecordError: (error) => isClickHouseError(error) && RECORD_ERROR_CODES.has(Number(error.code)),

    async deleteProjectEvents(projectId) {
      const where = 'project_id = {project:String}';
      await deleteWhere(where, { project: projectId }, async () => ({
        kind: 'all',
        where,
        walletDays: 'where',
        transactionDays: 'where',
      }));
    },

    deleteEventsBefore: (projectId, before) =>
      deleteWhere(
        "project_id = {project:String} AND ts < fromUnixTimestamp64Milli({before:Int64}, 'UTC')",
        { project: projectId, before: before.getTime() },
        async () => ({ kind: 'days', beforeParam: 'before' }),
      ),

    deleteWalletEvents(projectId, wallet) {
      const where =
        'project_id = {project:String} AND (wallet_address = {wallet:String} OR tx_from = {wallet:String})';
      const params = { project: projectId, wallet: wallet.toLowerCase() };
      // The users, session-, wallet- and transaction-days seen with the wallet, read before its events go: rebuilt
      // after (an event with the wallet as `tx_from` can carry another `wallet_address`).
      return deleteWhere(where, params, async () => ({
        kind: 'users',
        userIds: (
          await clickhouse.rows(
            `SELECT DISTINCT user_id FROM events WHERE ${where}`,
            params,
            z.object({ user_id: z.string() }),
          )
        ).map((row) => row.user_id),
        sessionDays: await clickhouse.rows(sessionDayKeysOf(where), params, SessionDayKeyRow),
        walletDays: await clickhouse.rows(walletDayKeysOf(where), params, WalletDayKeyRow),
        transactionDays: await clickhouse.rows(transactionDayKeysOf(where), params, TransactionDayKeyRow),
      }));
    },

    deleteUserEvents(projectId, userId) {
      const where = 'project_id = {project:String} AND user_id = {user:String}';
      const params = { project: projectId, user: userId };
      // The wallet- and transaction-days of the user's events, read before they go: rebuilt after from the
      // other users'.
      return deleteWhere(where, params, async () => ({
        kind: 'all',
        where,
        walletDays: await clickhouse.rows(walletDayKeysOf(where), params, WalletDayKeyRow),
        transactionDays: await clickhouse.rows(transactionDayKeysOf(where), params, TransactionDayKeyRow),
      }));
    },

    async close() {
      if (isClosed) return;
      const last = writes;
      isClosed = true;
      await last;
    },
  };
  return writer;
}
