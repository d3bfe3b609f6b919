import { INCIDENT_SOURCES, sqlList } from '../domain.ts';
import type { DerivedTable } from './derived-table.ts';
import { FAILED_NEAR, SENDING_OCCURRENCE } from './sql.ts';

/** The incident occurrences among `{source}`'s rows: what the summaries count (incident-summaries.ts). */
const INCIDENT_OCCURRENCES_OF = `(SELECT * FROM {source}
     WHERE type = 'error' AND incident_id IS NOT NULL AND error_source IN ${sqlList(INCIDENT_SOURCES)})`;
/** The failed and reverted stages among `{source}`'s rows, as `transaction_failures` holds them. */
const FAILURES_OF = `(SELECT * FROM {source}
     WHERE type = 'tx' AND tx_stage IN ('failed', 'reverted') AND tx_id IS NOT NULL)`;
/** `incident_members`: each incident's occurrences, users, wallets, days and failed transactions, as sets. */
export const INCIDENT_MEMBERS: DerivedTable = {
  name: 'incident_members',
  definedIn: 6,
  order: 'project_id, incident_id, kind',
  // After `incident_occurrences` and `transaction_failures` (this list's order is the load's): a failed
  // transaction pairs with an occurrence of the same load or of an earlier one, and the other way round.
  rows: `SELECT DISTINCT * FROM (
    SELECT project_id, incident_id, 'occurrence' AS kind, id AS member FROM ${INCIDENT_OCCURRENCES_OF}
    UNION ALL
    SELECT project_id, incident_id, 'user', user_id FROM ${INCIDENT_OCCURRENCES_OF}
    UNION ALL
    SELECT project_id, incident_id, 'wallet', wallet_address FROM ${INCIDENT_OCCURRENCES_OF}
     WHERE wallet_address IS NOT NULL
    UNION ALL
    SELECT project_id, incident_id, 'day', strftime(ts, '%Y-%m-%d') FROM ${INCIDENT_OCCURRENCES_OF}
    UNION ALL
    SELECT o.project_id, o.incident_id, 'failed_tx', t.tx_id
      FROM ${INCIDENT_OCCURRENCES_OF} o
      JOIN transaction_failures t ON t.project_id = o.project_id AND ${FAILED_NEAR('o', 't')}
     WHERE ${SENDING_OCCURRENCE('o')}
    UNION ALL
    SELECT o.project_id, o.incident_id, 'failed_tx', t.tx_id
      FROM incident_occurrences o
      JOIN ${FAILURES_OF} t ON t.project_id = o.project_id AND ${FAILED_NEAR('o', 't')}
     WHERE o.error_source IN ${sqlList(INCIDENT_SOURCES)} AND ${SENDING_OCCURRENCE('o')}
  )`,
  onConflict: ['ON CONFLICT DO NOTHING'],
};
