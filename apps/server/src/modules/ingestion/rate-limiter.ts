/**
 * Token bucket per project: `eventsPerMinute` refill, bursts up to one minute's worth. Counts events,
 * not requests, so one client cannot dodge it with large batches.
 */
export function createRateLimiter({ eventsPerMinute }: { eventsPerMinute: number }) {
  const buckets = new Map<string, { tokens: number; updatedAt: number }>();
  const perMs = eventsPerMinute / 60_000;

  return {
    /**
     * Takes `events` tokens and answers 0, or, when the bucket does not hold that many (nothing is taken
     * then), the milliseconds until it will (a batch larger than the bucket: a full refill).
     */
    take(projectId: string, events: number, now = Date.now()): number {
      let bucket = buckets.get(projectId);
      if (!bucket) {
        if (buckets.size > 100_000) buckets.clear();
        bucket = { tokens: eventsPerMinute, updatedAt: now };
        buckets.set(projectId, bucket);
      }
      bucket.tokens = Math.min(eventsPerMinute, bucket.tokens + (now - bucket.updatedAt) * perMs);
      bucket.updatedAt = now;
      if (bucket.tokens < events) {
        return Math.ceil((Math.min(events, eventsPerMinute) - bucket.tokens) / perMs);
      }
      bucket.tokens -= events;
      return 0;
    },
  };
}
