import { COPY_SPILL_BYTES } from './copy-spill.ts';

/**
 * `custom_events`: the custom and identify events with the columns the Events questions read (ADR 072), and
 * the columns every delete of events names (`ts`, `user_id`, `wallet_address`, `tx_from`), so a delete takes
 * the same rows out of it with the same condition. A ReplacingMergeTree on the events' own key, with the
 * type before the time: a project's identifies are one short key range, its custom events of a range
 * another. Rows, not aggregates: any range, any time zone's days and the identities read at query time
 * stay exact; a row loaded twice is merged away by FINAL where a row's presence counts.
 */
export const CREATE_CUSTOM_EVENTS = `CREATE TABLE IF NOT EXISTS custom_events (
  project_id String,
  type LowCardinality(String),
  ts DateTime64(3, 'UTC'),
  id String,
  user_id String,
  wallet_address Nullable(String),
  tx_from Nullable(String),
  event_name LowCardinality(Nullable(String)),
  app_user_id Nullable(String),
  props Nullable(String)
) ENGINE = ReplacingMergeTree
ORDER BY (project_id, type, ts, id)`;

const COLUMNS = 'project_id, type, ts, id, user_id, wallet_address, tx_from, event_name, app_user_id, props';

/** The rows of `custom_events` among the events a SELECT reads. */
export const CUSTOM_EVENTS_OF_EVENTS = `SELECT ${COLUMNS}
  FROM events
 WHERE type IN ('custom', 'identify')`;

/**
 * The table, the view that feeds it, then the rows already stored (an event loaded in between reaches it
 * twice and merges away), sorted by the key so that the copy lands as parts of consecutive keys.
 */
export const CUSTOM_EVENTS_STATEMENTS = [
  CREATE_CUSTOM_EVENTS,
  `CREATE MATERIALIZED VIEW IF NOT EXISTS custom_events_of_events TO custom_events AS
${CUSTOM_EVENTS_OF_EVENTS}`,
  `INSERT INTO custom_events (${COLUMNS}) ${CUSTOM_EVENTS_OF_EVENTS}
 ORDER BY project_id, type, ts, id
SETTINGS max_bytes_before_external_sort = ${COPY_SPILL_BYTES}`,
];
