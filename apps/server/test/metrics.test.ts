import { createServer } from 'node:net';
import { describe, expect, it } from 'vitest';
import { graphqlClient } from './analytics/graphql-client.ts';
import { pageView, postBatch } from './ingestion/support.ts';
import { startTestApp, useTestApp } from './support/harness.ts';
import { seed } from './support/seed.ts';

const TOKEN = 'metrics-token-0123456789';

/** One sample's value from the exposition text, or undefined when the series is absent. */
function sample(text: string, series: string): number | undefined {
  const line = text.split('\n').find((candidate) => candidate.startsWith(`${series} `));
  return line === undefined ? undefined : Number(line.slice(series.length + 1));
}

async function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const server = createServer();
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => resolve(typeof address === 'object' && address ? address.port : 0));
    });
  });
}

describe('GET /metrics with METRICS_TOKEN', () => {
  const harness = useTestApp('sqlite', { metricsToken: TOKEN });
  const scrape = async () => {
    const response = await harness.app.inject({
      method: 'GET',
      url: '/metrics',
      headers: { authorization: `Bearer ${TOKEN}` },
    });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toBe('text/plain; version=0.0.4; charset=utf-8');
    return response.body;
  };

  it('refuses a missing or wrong token with 401, no metrics in the body', async () => {
    for (const authorization of [undefined, 'Bearer wrong-token-0123456789', TOKEN]) {
      const response = await harness.app.inject({
        method: 'GET',
        url: '/metrics',
        headers: authorization ? { authorization } : {},
      });
      expect(response.statusCode).toBe(401);
      expect(response.json()).toMatchObject({ errorCode: 'BAD_AUTHENTICATION' });
      expect(response.body).not.toContain('polyflow_');
    }
  });

  it('shows ingestion, refusals, backlog, loader lag, query latency and memory moving under load', async () => {
    const { user, project } = await seed(harness.services)
      .user()
      .verified()
      .project('Metrics')
      .apiKey()
      .domain('app.example.com');
    const apiKey = project.apiKey as string;
    const before = await scrape();
    for (const family of [
      'polyflow_ingest_events_accepted_total',
      'polyflow_ingest_refusals_total',
      'polyflow_ingest_log_backlog_bytes',
      'polyflow_ingest_loader_lag_seconds',
      'polyflow_graphql_query_duration_seconds',
      'process_resident_memory_bytes',
      'nodejs_heap_used_bytes',
    ]) {
      expect(before).toContain(`# TYPE ${family} `);
    }
    expect(sample(before, 'process_resident_memory_bytes')).toBeGreaterThan(10_000_000);

    // Load: 40 batches of 5 events, a retry of one batch (duplicates), and refused requests.
    const batches = Array.from({ length: 40 }, (_, i) =>
      Array.from({ length: 5 }, (_, j) => pageView({ path: `/p${i}-${j}` })),
    );
    const answers = await Promise.all(batches.map((events) => postBatch(harness.app, { apiKey, events })));
    expect(answers.every((answer) => answer.statusCode === 200)).toBe(true);
    await postBatch(harness.app, { apiKey, events: batches[0] ?? [] });
    expect((await postBatch(harness.app, { apiKey: 'pk_unknown', events: [pageView()] })).statusCode).toBe(
      401,
    );
    for (let i = 0; i < 2; i++) {
      const answer = await postBatch(
        harness.app,
        { apiKey, events: [pageView()] },
        { origin: 'https://evil.example' },
      );
      expect(answer.statusCode).toBe(403);
    }
    // Acknowledged, not necessarily loaded yet: the backlog is what the log holds right now.
    const during = await scrape();
    const backlog = sample(during, 'polyflow_ingest_log_backlog_bytes') ?? -1;
    const lag = sample(during, 'polyflow_ingest_loader_lag_seconds') ?? -1;
    if (backlog > 0) expect(lag).toBeGreaterThanOrEqual(0);
    else expect(lag).toBe(0);

    const gql = graphqlClient(harness.app);
    const query = 'query Q($projectId: ID!) { totalConnectedWallets(projectId: $projectId) { value } }';
    for (let i = 0; i < 3; i++) {
      const answer = await gql(query, { projectId: project.id }, { token: user.token });
      expect(answer.errors).toBeUndefined();
    }
    await harness.services.events.flush();
    const after = await scrape();

    const delta = (series: string) => (sample(after, series) ?? 0) - (sample(before, series) ?? 0);
    expect(delta('polyflow_ingest_events_accepted_total')).toBe(200);
    expect(delta('polyflow_ingest_events_duplicate_total')).toBe(5);
    expect(delta('polyflow_ingest_refusals_total{reason="NON_EXISTENT_API_KEY"}')).toBe(1);
    expect(delta('polyflow_ingest_refusals_total{reason="ORIGIN_NOT_WHITELISTED"}')).toBe(2);
    expect(delta('polyflow_graphql_query_duration_seconds_count{question="totalConnectedWallets"}')).toBe(3);
    expect(
      sample(
        after,
        'polyflow_graphql_query_duration_seconds_bucket{question="totalConnectedWallets",le="+Inf"}',
      ),
    ).toBe(sample(after, 'polyflow_graphql_query_duration_seconds_count{question="totalConnectedWallets"}'));
    expect(
      sample(after, 'polyflow_graphql_query_duration_seconds_sum{question="totalConnectedWallets"}'),
    ).toBeGreaterThan(0);
    // Everything acknowledged is loaded after flush: nothing waits.
    expect(sample(after, 'polyflow_ingest_log_backlog_bytes')).toBe(0);
    expect(sample(after, 'polyflow_ingest_loader_lag_seconds')).toBe(0);
  });
});

describe('metrics off by default, and on a port of their own', () => {
  it('answers 404 on /metrics when neither METRICS_TOKEN nor METRICS_PORT is set', async () => {
    const test = await startTestApp('sqlite');
    try {
      const response = await test.app.inject({
        method: 'GET',
        url: '/metrics',
        headers: { authorization: `Bearer ${TOKEN}` },
      });
      expect(response.statusCode).toBe(404);
      expect(response.json()).toMatchObject({ errorCode: 'RESOURCE_NOT_FOUND' });
    } finally {
      await test.close();
    }
  });

  it('serves /metrics on METRICS_PORT (and only there without a token) once the server listens', async () => {
    const metricsPort = await freePort();
    const test = await startTestApp('sqlite', { metricsPort });
    try {
      await test.app.listen({ port: 0, host: '127.0.0.1' });
      const response = await fetch(`http://127.0.0.1:${metricsPort}/metrics`);
      expect(response.status).toBe(200);
      expect(await response.text()).toContain('# TYPE polyflow_ingest_events_accepted_total counter');
      expect((await fetch(`http://127.0.0.1:${metricsPort}/api/v1/health`)).status).toBe(404);
      expect((await test.app.inject({ method: 'GET', url: '/metrics' })).statusCode).toBe(404);
    } finally {
      await test.close();
    }
    await expect(fetch(`http://127.0.0.1:${metricsPort}/metrics`)).rejects.toThrow();
  });
});
