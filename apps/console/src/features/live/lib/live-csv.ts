import type { LiveActivity, LiveEvent } from '@polyflow/contracts/live';
import type { CsvTable } from '../../../lib/csv';
import { describeEvent } from './describe-event';

/** The three tiles of the last 30 minutes as a file: one row, with the window they cover. */
export function activityCsv(activity: LiveActivity): CsvTable {
  const events = activity.eventsPerMinute.reduce((sum, bucket) => sum + bucket.value, 0);
  return {
    header: ['from', 'to', 'active_users', 'active_wallets', 'events'],
    rows: [[activity.from, activity.to, activity.activeUsers, activity.activeWallets, events]],
  };
}

/** The bars: one row per minute, oldest first. */
export function eventsPerMinuteCsv(activity: LiveActivity): CsvTable {
  return {
    header: ['minute_from', 'minute_to', 'events'],
    rows: activity.eventsPerMinute.map((bucket) => [bucket.from, bucket.to, bucket.value]),
  };
}

/**
 * The list as shown (newest first; the frozen list while paused): what each line says (title, detail)
 * and the facts it shortens (the whole wallet address, the exact times).
 */
export function liveEventsCsv(events: readonly LiveEvent[]): CsvTable {
  return {
    header: [
      'time',
      'received_at',
      'type',
      'title',
      'detail',
      'wallet',
      'country',
      'user_id',
      'session_id',
      'id',
    ],
    rows: events.map((event) => {
      const { title, detail } = describeEvent(event);
      return [
        event.time,
        event.receivedAt,
        event.type,
        title,
        detail,
        event.wallet,
        event.country,
        event.userId,
        event.sessionId,
        event.id,
      ];
    }),
  };
}
