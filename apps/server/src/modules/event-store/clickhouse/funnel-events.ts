import type { ClickHouse } from './client.ts';
import { COPY_SPILL_BYTES } from './copy-spill.ts';

/**
 * `funnel_events` (ADR 124): every event a custom funnel's step can be (page views, custom events, wallet
 * connections, transaction stages) with what the funnel reads of it, sorted by (project, type, event name,
 * stage, time, id), so that each step of a funnel reads only the rows of its own kind in the range: a page
 * step its page views, an event step the custom events of its name, a transaction step the stages of its
 * stage, where `events` (sorted by time) had every event of the range read for the steps' columns.
 * - `event_name` (custom events) and `tx_stage` (transactions) are empty on the other rows and where the
 *   event has none: a step names a non-empty one, which then matches no such event, as NULL did.
 * - `path` is dictionary-encoded (LowCardinality: `match` runs once per distinct path of a block, not once
 *   per page view), an absent path the empty text, as the funnel's step tested it.
 * - `user_key` is the events' (`cityHash64(user_id)`, ADR 093); `props` only on custom events.
 * A ReplacingMergeTree on the events' key, as `session_events` (ADR 096): an event loaded twice is one row
 * after merges, and a funnel read without FINAL only meets a time it has already (ADR 085). It keeps
 * `user_id`, `wallet_address`, `tx_from` and `ts`, the columns every delete of events names, so each delete
 * takes the same rows out of it with the same condition.
 */

/** The columns taken from `events` as they are (typed as there, by schema.ts). */
export const FUNNEL_EVENT_COLUMNS = [
  'project_id',
  'type',
  'ts',
  'id',
  'user_id',
  'wallet_address',
  'tx_from',
  'props',
  'utm_source',
  'utm_medium',
  'utm_campaign',
  'utm_content',
  'utm_term',
] as const;

/** The event types a funnel step can be (question.ts's `stepConditions`). */
const FUNNEL_EVENT_TYPES = "('page_view', 'custom', 'wallet_connected', 'tx')";

const FUNNEL_EVENTS_OF_EVENTS = `SELECT project_id, type, coalesce(event_name, '') AS event_name,
       coalesce(tx_stage, '') AS tx_stage, ts, id, cityHash64(user_id) AS user_key, user_id, wallet_address,
       tx_from, coalesce(path, '') AS path, if(type = 'custom', props, NULL) AS props, utm_source, utm_medium,
       utm_campaign, utm_content, utm_term
  FROM events WHERE type IN ${FUNNEL_EVENT_TYPES}`;

const KEY = 'project_id, type, event_name, tx_stage, ts, id';

/**
 * The table (`columns`: FUNNEL_EVENT_COLUMNS typed as in `events`, from schema.ts), the view that feeds it,
 * then the stored rows (an event loaded in between reaches it twice and folds away).
 */
export const funnelEventsStatements = (columns: Record<(typeof FUNNEL_EVENT_COLUMNS)[number], string>) => [
  `CREATE TABLE IF NOT EXISTS funnel_events (
  project_id ${columns.project_id},
  type ${columns.type},
  event_name LowCardinality(String),
  tx_stage LowCardinality(String),
  ts ${columns.ts},
  id ${columns.id},
  user_key UInt64,
  user_id ${columns.user_id},
  wallet_address ${columns.wallet_address},
  tx_from ${columns.tx_from},
  path LowCardinality(String),
  props ${columns.props},
  utm_source ${columns.utm_source},
  utm_medium ${columns.utm_medium},
  utm_campaign ${columns.utm_campaign},
  utm_content ${columns.utm_content},
  utm_term ${columns.utm_term}
) ENGINE = ReplacingMergeTree
ORDER BY (${KEY})`,
  `CREATE MATERIALIZED VIEW IF NOT EXISTS funnel_events_of_events TO funnel_events AS
${FUNNEL_EVENTS_OF_EVENTS}`,
  `INSERT INTO funnel_events ${FUNNEL_EVENTS_OF_EVENTS}
   ORDER BY ${KEY}
SETTINGS max_bytes_before_external_sort = ${COPY_SPILL_BYTES}`,
];

/** Version 32's copy, merged into one part as version 23 left every other table (ADR 097). */
export async function mergeFunnelEvents(clickhouse: ClickHouse): Promise<void> {
  await clickhouse.command('OPTIMIZE TABLE funnel_events FINAL');
}
