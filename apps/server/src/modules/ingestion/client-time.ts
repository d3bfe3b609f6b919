import type { IngestEvent } from '@polyflow/contracts/events';
import { badRequest } from '../../errors.ts';

/** The earliest client time accepted: 2015-01-01T00:00:00Z (before any wallet this product watches). */
export const EARLIEST_CLIENT_TIME_MS = Date.UTC(2015, 0, 1);
/** How far ahead of the server's clock a client's clock may run: one day. */
export const MAX_CLIENT_CLOCK_AHEAD_MS = 86_400_000;

/**
 * Refuses (400, naming the event) a batch holding an event whose client time `ts` is outside the
 * accepted range, 2015-01-01T00:00:00Z to the server's receive time plus 1 day
 * (docs/data-access-and-privacy.md, "Accepted client times"). Like any other bad field, the whole
 * batch is refused and nothing is written: every stored time is one the dashboards, their buckets and
 * the export can show in both engines.
 */
export function assertClientTimes(events: readonly IngestEvent[], receivedAtMs: number): void {
  const latest = receivedAtMs + MAX_CLIENT_CLOCK_AHEAD_MS;
  for (let index = 0; index < events.length; index++) {
    const ts = (events[index] as IngestEvent).ts;
    if (ts >= EARLIEST_CLIENT_TIME_MS && ts <= latest) continue;
    const path = `events.${index}.ts`;
    const message = `client time ${ts} is outside the accepted range (2015-01-01T00:00:00Z to the server's time plus 1 day, ${new Date(latest).toISOString()} now)`;
    throw badRequest(`Invalid batch: event ${index}, field "ts": ${message}.`, [{ path, message }]);
  }
}
