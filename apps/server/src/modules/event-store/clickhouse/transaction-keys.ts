/**
 * Each transaction stage's keys (its SDK id, and its hash once it has one) with the stage's time: the
 * transaction screen opens a transaction by either, which `events` (sorted by time) can only find by
 * reading all of a project's transactions. Beside the key, the columns every delete of events names
 * (`ts`, `user_id`, `wallet_address`, `tx_from`), so a delete takes the same rows out of it with the same
 * condition. Read through min, max and any: a stage stored twice changes none.
 */
export const CREATE_TRANSACTION_KEYS = `CREATE TABLE IF NOT EXISTS transaction_keys (
  project_id String,
  key String,
  tx_id String,
  ts DateTime64(3, 'UTC'),
  id String,
  user_id String,
  wallet_address Nullable(String),
  tx_from Nullable(String)
) ENGINE = ReplacingMergeTree
ORDER BY (project_id, key, ts, id)`;

const TRANSACTION_KEYS_OF_EVENTS = `SELECT project_id, key, assumeNotNull(tx_id) AS tx_id, ts, id, user_id,
       wallet_address, tx_from
  FROM events
 ARRAY JOIN arrayMap(k -> assumeNotNull(k), arrayFilter(k -> isNotNull(k), [tx_id, tx_hash])) AS key
 WHERE type = 'tx' AND tx_id IS NOT NULL`;

export const TRANSACTION_KEYS_STATEMENTS = [
  CREATE_TRANSACTION_KEYS,
  `CREATE MATERIALIZED VIEW IF NOT EXISTS transaction_keys_of_events TO transaction_keys AS
${TRANSACTION_KEYS_OF_EVENTS}`,
  `INSERT INTO transaction_keys ${TRANSACTION_KEYS_OF_EVENTS}`,
];

/**
 * The stages (time and transaction) of every transaction the history's search (`{f_search:String}`, a
 * lower-case `0x` prefix; docs/analytics.md#searching-and-filtering-the-history) can keep: one of its
 * stages' hash starts with it (`transaction_keys` by its key), or one of its stages carries a wallet
 * (`tx_from` or the connected wallet) that does (`wallet_events` by its key); each found by a prefix of
 * its table's sort key, not by grouping every transaction of the window. A superset: the question's own
 * condition (the first stage's wallet) still decides. `(ts, tx_id) IN` this, on `events`, reads only those
 * transactions' stages (the events' key is (project, time)).
 */
export const SEARCHED_STAGES = `SELECT ts, tx_id FROM transaction_keys
  WHERE project_id = {project:String}
    AND key IN (
      SELECT tx_id FROM transaction_keys
       WHERE project_id = {project:String} AND startsWith(key, {f_search:String})
      UNION ALL
      SELECT assumeNotNull(tx_id) FROM wallet_events
       WHERE project_id = {project:String} AND startsWith(wallet, {f_search:String})
         AND type = 'tx' AND tx_id IS NOT NULL)`;
