import type { DerivedTable } from './derived-table.ts';
import { userKeyOf } from './sessions.ts';

/**
 * `keyed_user_lives`: each user's first and last day, with the user's key (ADR 032, 040). Named `user_lives`
 * before version 10; ClickHouse's `user_lives` has no key (docs/decisions/090-one-name-one-shape.md).
 */
export const KEYED_USER_LIVES: DerivedTable = {
  name: 'keyed_user_lives',
  definedIn: 10,
  order: 'project_id, first_day',
  // Written only when a load moves a user's first or last day (most loads see users known already).
  rows: `SELECT project_id, user_id, min(ts)::DATE AS first_day, max(ts)::DATE AS last_day,
       ${userKeyOf('user_id')} AS user_key
  FROM {source}
 GROUP BY project_id, user_id`,
  onConflict: [
    `ON CONFLICT (project_id, user_id) DO UPDATE SET
  first_day = least(first_day, excluded.first_day),
  last_day = greatest(last_day, excluded.last_day)
  WHERE excluded.first_day < first_day OR excluded.last_day > last_day`,
  ],
};
