import type { DerivedTable } from './derived-table.ts';

/**
 * `custom_events`: the custom and identify events with the columns the Events questions read (ADR 072).
 * A subset of `events`, so any range, any time zone's days and the identities read at query time stay
 * exact; clustered by (project, type, time), so a project's identifies are a few row groups and a range of
 * its custom events skips the rest of its history.
 */
export const CUSTOM_EVENTS: DerivedTable = {
  name: 'custom_events',
  definedIn: 10,
  order: 'project_id, type, ts',
  rows: `SELECT project_id, type, ts, id, user_id, wallet_address, tx_from, event_name, app_user_id, props
  FROM {source} WHERE type IN ('custom', 'identify')`,
  onConflict: ['ON CONFLICT DO NOTHING'],
};
