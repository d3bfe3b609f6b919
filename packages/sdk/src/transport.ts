import type { IngestEventInput } from '@polyflow/contracts/events';
import { load, noop, store, uid } from './util.ts';

/** Sent with every batch so the server can tell SDK versions apart. */
export const SDK_VERSION = '2.0.0';
/**
 * Browsers cap keepalive bodies at 64 KiB (and the server rejects larger batches); the margin leaves room
 * for the batch envelope around the events.
 */
const BODY_LIMIT = 64 * 1024 - 1024;
/** More unsent events than this (server down for long) and the oldest go first: storage is not unbounded. */
const QUEUE_LIMIT = 1000;
/** Consecutive failed sends after which this page stops retrying; the queue stays stored for the next page. */
const MAX_RETRIES = 8;
const QUEUE_PREFIX = 'pf_q:';

export interface Transport {
  push(event: IngestEventInput): void;
  /** Sends everything queued now, back-off or not (page hide, explicit flush). Never rejects. */
  flush(): Promise<void>;
  /** Forgets every unsent event (opt-out). */
  clear(): void;
  stop(): void;
}

/**
 * Queue → batches → `fetch`. Events stay in localStorage until the server answered for them, so a crash,
 * a closed tab or a down server loses nothing: the next page load sends them again (at least once; the
 * server de-duplicates on the event ids).
 */
export function createTransport(
  url: string,
  apiKey: string,
  release: unknown,
  maxBatch: number,
  intervalMs: number,
  log: (...args: unknown[]) => void,
): Transport {
  // One storage key per page, so tabs do not overwrite each other's queues.
  const key = QUEUE_PREFIX + uid();
  let pending: IngestEventInput[] = [];
  const inFlight: IngestEventInput[][] = [];
  let timer: ReturnType<typeof setTimeout> | undefined;
  let failures = 0;
  // The first batch (the landing page view) goes at once, so a live view shows a visit as it opens;
  // later events wait for the interval or a full batch, as before.
  let wait = 0;

  // Adopt queues left by earlier pages of this project (closed before their events were acknowledged).
  try {
    for (const k of Object.keys(localStorage)) {
      if (!k.startsWith(QUEUE_PREFIX)) continue;
      const [owner, events] = JSON.parse(load(k) as string);
      if (owner !== apiKey) continue;
      pending.push(...events);
      store(k);
    }
  } catch {}

  const save = () => {
    const all = pending.concat(...inFlight);
    store(key, all.length ? JSON.stringify([apiKey, all]) : undefined);
  };

  // While a back-off timer is set, new events wait for it; after MAX_RETRIES only a forced flush sends.
  const schedule = (ms: number) => {
    if (failures < MAX_RETRIES) timer ||= setTimeout(flush, ms);
  };

  // Splits by count and by encoded size, so each request body stays under the keepalive limit.
  const split = (events: IngestEventInput[]) => {
    const batches: IngestEventInput[][] = [];
    let batch: IngestEventInput[] = [];
    let size = 0;
    for (const event of events) {
      const bytes = new Blob([JSON.stringify(event)]).size + 1;
      if (batch.length && (batch.length >= maxBatch || size + bytes > BODY_LIMIT)) {
        batches.push(batch);
        batch = [];
        size = 0;
      }
      batch.push(event);
      size += bytes;
    }
    if (batch.length) batches.push(batch);
    return batches;
  };

  async function send(events: IngestEventInput[]): Promise<void> {
    inFlight.push(events);
    let retry = true;
    try {
      // A string body is sent as text/plain and there are no custom headers: no CORS preflight.
      const response = await fetch(url, {
        method: 'POST',
        body: JSON.stringify({ apiKey, sdkVersion: SDK_VERSION, release, events }),
        keepalive: true,
        credentials: 'omit',
      });
      const { status } = response;
      retry = status === 429 || status >= 500;
      if (!response.ok) log('send', status);
    } catch (error) {
      log('send', error);
    }
    const index = inFlight.indexOf(events);
    // Not found: the queue was cleared (opt-out) while this batch was on the way, so it must not come back.
    if (index >= 0) inFlight.splice(index, 1);
    if (retry && index >= 0) {
      pending.unshift(...events);
      failures++;
      stop();
      schedule(Math.min(1000 * 2 ** failures, 60_000));
    } else failures = 0;
    save();
  }

  function stop() {
    clearTimeout(timer);
    timer = undefined;
  }

  function flush(): Promise<void> {
    stop();
    return Promise.all(split(pending.splice(0)).map(send)).then(noop);
  }

  return {
    push(event) {
      pending.push(event);
      pending.splice(0, pending.length - QUEUE_LIMIT);
      save();
      pending.length >= maxBatch && !failures ? flush() : schedule(wait);
      wait = intervalMs;
    },
    flush,
    clear() {
      pending = [];
      inFlight.length = 0;
      save();
    },
    stop,
  };
}
