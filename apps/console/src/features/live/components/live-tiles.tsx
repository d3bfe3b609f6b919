import type { LiveActivity } from '@polyflow/contracts/live';
import { DownloadCsvButton } from '../../../components/ui/download-csv-button';
import { StatTile } from '../../../components/ui/stat-tile';
import { formatHourMinute, zoneAbbreviation } from '../../../lib/format';
import { eventsPerMinuteCsv } from '../lib/live-csv';

const count = new Intl.NumberFormat('en-US', { maximumFractionDigits: 0 });
const minuteOf = (iso: string) => formatHourMinute(iso);

interface LiveTilesProps {
  activity: LiveActivity | undefined;
  isLoading: boolean;
  isError: boolean;
}

/** Users, wallets and events of the last 30 minutes, and the events of each minute as bars. */
export function LiveTiles({ activity, isLoading, isError }: LiveTilesProps) {
  const buckets = activity?.eventsPerMinute ?? [];
  const total = buckets.reduce((sum, bucket) => sum + bucket.value, 0);
  return (
    <div className="flex flex-col gap-3">
      <dl className="grid grid-cols-1 gap-3 sm:grid-cols-3">
        <StatTile
          label="Active users"
          value={count.format(activity?.activeUsers ?? 0)}
          hint="with any event in the last 30 minutes"
          isLoading={isLoading}
          isError={isError}
        />
        <StatTile
          label="Active wallets"
          value={count.format(activity?.activeWallets ?? 0)}
          hint="seen on any event in the last 30 minutes"
          isLoading={isLoading}
          isError={isError}
        />
        <StatTile
          label="Events"
          value={count.format(total)}
          hint="in the last 30 minutes"
          isLoading={isLoading}
          isError={isError}
        />
      </dl>
      {activity && <EventsPerMinute activity={activity} />}
    </div>
  );
}

function EventsPerMinute({ activity }: { activity: LiveActivity }) {
  const buckets = activity.eventsPerMinute;
  const max = Math.max(1, ...buckets.map((bucket) => bucket.value));
  const busiest = buckets.reduce(
    (best, bucket) => (bucket.value > (best?.value ?? -1) ? bucket : best),
    buckets[0],
  );
  const first = buckets[0];
  const last = buckets.at(-1);
  return (
    <figure className="rounded-xl bg-slate-50 p-4 ring-1 ring-inset ring-slate-200">
      <figcaption className="mb-2 flex flex-wrap items-baseline justify-between gap-2 text-xs text-slate-600">
        <span className="text-[0.7rem] font-semibold uppercase tracking-wide text-indigo-700">
          Events per minute
        </span>
        <span className="flex flex-wrap items-center gap-x-2">
          <span>
            {first && last ? `${minuteOf(first.from)}–${minuteOf(last.to)} ${zoneAbbreviation(last.to)}` : ''}
            {busiest && busiest.value > 0
              ? ` · busiest ${minuteOf(busiest.from)}: ${count.format(busiest.value)}`
              : ''}
          </span>
          <DownloadCsvButton table="Events per minute" build={() => eventsPerMinuteCsv(activity)} />
        </span>
      </figcaption>
      {/* The bars are a picture of the numbers above; each says its minute and count on hover. */}
      <div aria-hidden="true" className="flex h-20 items-end gap-px sm:gap-0.5">
        {buckets.map((bucket) => (
          <div
            key={bucket.from}
            title={`${minuteOf(bucket.from)} ${zoneAbbreviation(bucket.from)}: ${count.format(bucket.value)} events`}
            className="flex-1 rounded-t-sm bg-indigo-500"
            style={{
              height: `${bucket.value === 0 ? 2 : Math.max(6, (100 * bucket.value) / max)}%`,
              opacity: bucket.value === 0 ? 0.25 : 1,
            }}
          />
        ))}
      </div>
    </figure>
  );
}
