import { countOf, formatDate } from '../../../lib/format';
import type { EventDay } from '../api/get-custom-event-series';

/** Events per day as horizontal bars: light enough for the Events screen's chunk (no chart library). */
export function DayBars({ days }: { days: EventDay[] }) {
  const most = Math.max(1, ...days.map((day) => day.events));
  return (
    <ol className="flex flex-col gap-1" data-testid="event-series">
      {days.map((day) => (
        <li key={day.day} className="grid grid-cols-[6.5rem_1fr_auto] items-center gap-2 text-xs">
          {/* A day key of the project's zone ("2026-11-03"): read at UTC midnight, so no offset shifts it. */}
          <time dateTime={day.day} className="tabular-nums text-slate-600">
            {formatDate(`${day.day}T00:00:00Z`, 'UTC')}
          </time>
          <span className="h-3 rounded bg-slate-100" aria-hidden="true">
            <span
              className="block h-3 rounded bg-indigo-500"
              style={{ width: `${(day.events / most) * 100}%` }}
            />
          </span>
          <span className="tabular-nums text-slate-700">
            {day.events.toLocaleString('en-US')} · {countOf(day.users, 'user')}
          </span>
        </li>
      ))}
    </ol>
  );
}
