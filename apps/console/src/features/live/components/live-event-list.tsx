import type { LiveEvent } from '@polyflow/contracts/live';
import { useEffect, useRef, useState } from 'react';
import { Button } from '../../../components/ui/button';
import { cn } from '../../../components/ui/cn';
import { DownloadCsvButton } from '../../../components/ui/download-csv-button';
import { Pause, Play } from '../../../components/ui/icons';
import { WalletLink } from '../../../components/wallet-link';
import { formatTimeOfDay, zoneAbbreviation } from '../../../lib/format';
import { describeEvent, type EventTone } from '../lib/describe-event';
import { liveEventsCsv } from '../lib/live-csv';

/** A screen reader hears at most one summary this often, not every event. */
export const ANNOUNCE_EVERY_MS = 10_000;

const TONES: Record<EventTone, string> = {
  neutral: 'bg-slate-400',
  wallet: 'bg-indigo-500',
  transaction: 'bg-emerald-500',
  signature: 'bg-sky-500',
  error: 'bg-red-500',
};
const timeOf = (iso: string) => formatTimeOfDay(iso);

interface LiveEventListProps {
  events: LiveEvent[];
  /** Every event received so far (the list keeps only the newest). */
  received: number;
}

/**
 * The newest events, newest first. Pausing freezes the list (new events still count). A polite live
 * region says how many arrived, at most every ANNOUNCE_EVERY_MS, instead of reading each one.
 */
export function LiveEventList({ events, received }: LiveEventListProps) {
  const [isPaused, setPaused] = useState(false);
  const [frozen, setFrozen] = useState<LiveEvent[]>([]);
  const [receivedAtPause, setReceivedAtPause] = useState(0);
  const shown = isPaused ? frozen : events;
  const announcement = useThrottledAnnouncement(received);

  const togglePause = () => {
    if (!isPaused) {
      setFrozen(events);
      setReceivedAtPause(received);
    }
    setPaused(!isPaused);
  };

  return (
    <div className="flex flex-col gap-3">
      <div className="flex flex-wrap items-center justify-between gap-2">
        <p className="text-xs text-slate-500">
          {isPaused ? `Paused · ${received - receivedAtPause} new since` : 'Newest first · updates by itself'}
        </p>
        <div className="flex items-center gap-1">
          <DownloadCsvButton table="Latest events" build={() => liveEventsCsv(shown)} />
          <Button size="sm" variant="secondary" onClick={togglePause} aria-pressed={isPaused}>
            {isPaused ? (
              <Play aria-hidden="true" className="size-3.5" />
            ) : (
              <Pause aria-hidden="true" className="size-3.5" />
            )}
            {isPaused ? 'Resume' : 'Pause'}
          </Button>
        </div>
      </div>
      <p aria-live="polite" className="sr-only">
        {announcement}
      </p>
      <ol aria-label="Latest events" className="divide-y divide-slate-100">
        {shown.map((event) => {
          const { title, detail, tone } = describeEvent(event);
          return (
            <li key={event.id} className="flex items-start gap-3 py-2.5 text-sm">
              <span aria-hidden="true" className={cn('mt-1.5 size-2 shrink-0 rounded-full', TONES[tone])} />
              <div className="flex min-w-0 flex-1 flex-col gap-0.5 sm:flex-row sm:items-baseline sm:gap-3">
                <span className="font-semibold text-slate-900">{title}</span>
                {detail && (
                  <span className="min-w-0 truncate font-mono text-xs text-slate-600" title={detail}>
                    {detail}
                  </span>
                )}
                <span className="text-xs text-slate-500 sm:ml-auto sm:shrink-0">
                  {event.wallet && (
                    <>
                      <WalletLink address={event.wallet} />
                      {' · '}
                    </>
                  )}
                  {event.country ? `${event.country} · ` : ''}
                  <time dateTime={event.time}>
                    {timeOf(event.time)} {zoneAbbreviation(event.time)}
                  </time>
                </span>
              </div>
            </li>
          );
        })}
      </ol>
    </div>
  );
}

/** "3 new events" once per interval while events arrive; nothing while they do not. */
function useThrottledAnnouncement(received: number): string {
  const [announcement, setAnnouncement] = useState('');
  const announced = useRef(received);
  const latest = useRef(received);
  latest.current = received;
  useEffect(() => {
    const timer = setInterval(() => {
      const fresh = latest.current - announced.current;
      if (fresh > 0) {
        announced.current = latest.current;
        setAnnouncement(`${fresh} new ${fresh === 1 ? 'event' : 'events'}`);
      }
    }, ANNOUNCE_EVERY_MS);
    return () => clearInterval(timer);
  }, []);
  return announcement;
}
