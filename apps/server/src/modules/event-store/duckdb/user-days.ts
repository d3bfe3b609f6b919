import type { DerivedTable } from './derived-table.ts';

/** `user_days`: the (day, user) pairs with an event: user-days (ADR 005). */
export const USER_DAYS: DerivedTable = {
  name: 'user_days',
  definedIn: 4,
  order: 'project_id, day',
  rows: 'SELECT DISTINCT project_id, ts::DATE AS day, user_id FROM {source}',
  onConflict: ['ON CONFLICT DO NOTHING'],
};
