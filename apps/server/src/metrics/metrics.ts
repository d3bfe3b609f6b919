import { createRegistry } from './registry.ts';

/** Upper bounds of the query-latency buckets, in seconds: the dashboard budget is p95 ≤ 100 ms. */
const QUERY_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];

/**
 * What an operator watches (`/metrics`, off unless METRICS_TOKEN or METRICS_PORT is set): ingestion rate
 * and refusals, the ingestion log's backlog and the loader's lag, dashboard query latency, memory.
 * One per app; recorders are additions on numbers that exist already.
 */
export function createMetrics() {
  const registry = createRegistry();
  const accepted = registry.counter(
    'polyflow_ingest_events_accepted_total',
    'Events acknowledged to clients as new (stored), SDK batches and 1.0.25 mutations; rate() is the ingestion rate.',
  );
  const duplicates = registry.counter(
    'polyflow_ingest_events_duplicate_total',
    'Events acknowledged as duplicates of an event id already stored (client retries).',
  );
  const refusals = registry.labelledCounter(
    'polyflow_ingest_refusals_total',
    'Requests to POST /api/v1/events refused, by errorCode (e.g. NON_EXISTENT_API_KEY, ORIGIN_NOT_WHITELISTED, RATE_LIMITED, INGESTION_BACKLOG).',
    'reason',
  );
  const alertAttempts = registry.labelledCounter(
    'polyflow_alert_delivery_attempts_total',
    'Attempts at delivering an alert notice to a channel, by outcome: delivered, retrying (failed, tried again later) or gave_up (failed after 24 hours of retries).',
    'outcome',
  );
  const queries = registry.histogram(
    'polyflow_graphql_query_duration_seconds',
    'Console GraphQL queries by dashboard question (the root field), from resolver start to result.',
    'question',
    QUERY_BUCKETS,
  );
  registry.gauge('process_resident_memory_bytes', 'Resident memory of the server process.', () =>
    process.memoryUsage.rss(),
  );
  registry.gauge('nodejs_heap_used_bytes', 'V8 heap in use.', () => process.memoryUsage().heapUsed);
  registry.gauge(
    'nodejs_external_memory_bytes',
    'Memory of buffers and native objects held by JavaScript.',
    () => process.memoryUsage().external,
  );
  const startedAt = Date.now() / 1000;
  registry.gauge('process_start_time_seconds', 'Start of the server process, Unix time.', () => startedAt);

  return {
    render: () => registry.render(),
    /** After a commit: what was acknowledged. */
    committed(result: { accepted: number; duplicates: number }): void {
      accepted.inc(result.accepted);
      duplicates.inc(result.duplicates);
    },
    refused(errorCode: string): void {
      refusals.labels(errorCode).inc();
    },
    /** One attempt at an alert delivery, by what came of it. */
    alertAttempt(outcome: 'delivered' | 'retrying' | 'gave_up'): void {
      alertAttempts.labels(outcome).inc();
    },
    queryTook(question: string, seconds: number): void {
      queries.observe(question, seconds);
    },
    /** The ingestion log's state, read at each scrape. */
    watchIngestLog(log: { backlogBytes(): number; loaderLagSeconds(): number }): void {
      registry.gauge(
        'polyflow_ingest_log_backlog_bytes',
        'Bytes acknowledged in the ingestion log and not yet loaded into the event store (503 beyond INGEST_BACKLOG_MAX_MB).',
        () => log.backlogBytes(),
      );
      registry.gauge(
        'polyflow_ingest_loader_lag_seconds',
        'How long the oldest acknowledged event not yet loaded into the event store may have waited; 0 when nothing waits.',
        () => log.loaderLagSeconds(),
      );
    },
  };
}

export type Metrics = ReturnType<typeof createMetrics>;
