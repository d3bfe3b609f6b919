import type { IngestEventInput } from '@polyflow/contracts/events';
import { describe, expect, it } from 'vitest';
import { EVENT_COLUMNS } from '../../src/modules/event-store/event-row.ts';
import { pageView, postBatch, storedEvents } from '../ingestion/support.ts';
import { apiClient, errorOf } from '../support/client.ts';
import { useTestApp } from '../support/harness.ts';
import { seed } from '../support/seed.ts';
import { exportedRecord, parseCsv } from './support.ts';

const T0 = Date.UTC(2026, 2, 10, 12);
const WALLET = '0xAbCdEf0123456789abcdef0123456789ABCDEF01';
const FROM = '2026-03-10T00:00:00Z';
const TO = '2026-03-11T00:00:00Z';

/** Events that fill most columns, with text a CSV must quote (commas, quotes, line breaks). */
function richEvents(): IngestEventInput[] {
  return [
    pageView({
      ts: T0,
      path: '/swap?a=1,b=2',
      title: 'Swap "now", cheap',
      referrer: 'https://news.example/post',
      utm: { source: 'twitter', medium: 'social', campaign: 'launch, day 1', content: 'a', term: 'b' },
    }),
    pageView({
      ts: T0 + 1,
      type: 'wallet_connected',
      wallet: { address: WALLET, provider: 'MetaMask', chainId: 1 },
    }),
    {
      ...pageView({ ts: T0 + 2 }),
      type: 'tx',
      txId: 'tx-1',
      stage: 'confirmed',
      kind: 'contract',
      hash: `0x${'ab'.repeat(32)}`,
      from: WALLET,
      to: '0x1111111111111111111111111111111111111111',
      value: '123456789012345678901234567890',
      selector: '0xa9059cbb',
      chainId: 8453,
      gasLimit: '21000',
      gasUsed: '20999',
      effectiveGasPrice: '1000000007',
      blockNumber: '19000000',
      nonce: '7',
    } as IngestEventInput,
    {
      ...pageView({ ts: T0 + 3 }),
      type: 'error',
      source: 'window',
      message: 'TypeError: x is "undefined",\r\nat line 2',
      stack: 'at a (app.js:1:2)\nat b (app.js:3:4)',
      walletState: { gasBalance: '5', nonce: '2' },
    } as IngestEventInput,
    // Outside [FROM, TO): the day before and exactly TO.
    pageView({ ts: Date.parse(FROM) - 1, path: '/before' }),
    pageView({ ts: Date.parse(TO), path: '/at-to' }),
  ];
}

describe('GET /api/v1/projects/:id/export/events', () => {
  const t = useTestApp('sqlite');
  const api = () => apiClient(t.app);

  async function projectWithEvents() {
    const seeded = await seed(t.services).user().verified().project().apiKey().domain('app.example.com');
    const response = await postBatch(t.app, { apiKey: seeded.project.apiKey ?? '', events: richEvents() });
    expect(response.statusCode).toBe(200);
    const stored = await storedEvents(t.services, seeded.project.id);
    const inRange = stored
      .filter((row) => row.ts >= Date.parse(FROM) && row.ts < Date.parse(TO))
      .sort((a, b) => a.ts - b.ts);
    return { ...seeded, inRange };
  }

  const exportUrl = (projectId: string, query: string) => `projects/${projectId}/export/events?${query}`;

  it('streams every stored event in [from, to) as NDJSON: ids and every field as ingested', async () => {
    const { user, project, inRange } = await projectWithEvents();
    expect(inRange).toHaveLength(4);
    const response = await api().get(exportUrl(project.id, `from=${FROM}&to=${TO}&format=ndjson`), {
      token: user.token,
    });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toBe('application/x-ndjson; charset=utf-8');
    expect(response.headers['content-disposition']).toBe(
      `attachment; filename="polyflow-events-${project.id}-2026-03-10T000000Z-2026-03-11T000000Z.ndjson"`,
    );
    const lines = response.body.split('\n');
    expect(lines.pop()).toBe('');
    const records = lines.map((line) => JSON.parse(line));
    expect(records).toEqual(inRange.map(exportedRecord));
    // Spot checks against what was sent, not just against the store.
    expect(records.map((record) => record.type)).toEqual(['page_view', 'wallet_connected', 'tx', 'error']);
    expect(records[2]).toMatchObject({
      tx_value: '123456789012345678901234567890',
      tx_from: WALLET.toLowerCase(),
      chain_id: 8453,
      ts: new Date(T0 + 2).toISOString(),
    });
    expect(Object.keys(records[0])).toEqual(EVENT_COLUMNS.map((column) => column.name));
  });

  it('streams the same events as CSV with a header row and RFC 4180 quoting', async () => {
    const { user, project, inRange } = await projectWithEvents();
    const response = await api().get(exportUrl(project.id, `from=${FROM}&to=${TO}&format=csv`), {
      token: user.token,
    });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toBe('text/csv; charset=utf-8; header=present');
    expect(response.headers['content-disposition']).toMatch(/filename=".*\.csv"$/);
    const [header, ...records] = parseCsv(response.body);
    expect(header).toEqual(EVENT_COLUMNS.map((column) => column.name));
    const expected = inRange.map((row) =>
      Object.values(exportedRecord(row)).map((value) => (value === null ? '' : String(value))),
    );
    expect(records).toEqual(expected);
    const title = header?.indexOf('title') ?? -1;
    expect(records[0]?.[title]).toBe('Swap "now", cheap');
    const message = header?.indexOf('error_message') ?? -1;
    expect(records[3]?.[message]).toBe('TypeError: x is "undefined",\r\nat line 2');
  });

  it('answers a range with no events with an empty body (CSV: the header alone)', async () => {
    const { user, project } = await projectWithEvents();
    const query = 'from=2020-01-01&to=2020-01-02';
    const ndjson = await api().get(exportUrl(project.id, query), { token: user.token });
    expect(ndjson.statusCode).toBe(200);
    expect(ndjson.body).toBe('');
    const csv = await api().get(exportUrl(project.id, `${query}&format=csv`), { token: user.token });
    expect(parseCsv(csv.body)).toEqual([EVENT_COLUMNS.map((column) => column.name)]);
  });

  it('adds local_time in the project zone across its spring change, in NDJSON and CSV, with localTime=true', async () => {
    const seeded = await seed(t.services).user().verified().project().apiKey().domain('app.example.com');
    const { user, project } = seeded;
    const zone = await api().patch(`projects/${project.id}`, {
      token: user.token,
      body: { timeZone: 'Europe/Berlin' },
    });
    expect(zone.statusCode).toBe(200);
    // Berlin, 29 March 2026: 01:59:59.999 CET, then the clocks jump to 03:00 CEST; a summer evening after.
    const times = ['2026-03-29T00:59:59.999Z', '2026-03-29T01:00:00.000Z', '2026-03-29T21:30:00.000Z'];
    const posted = await postBatch(t.app, {
      apiKey: seeded.project.apiKey ?? '',
      events: times.map((time) => pageView({ ts: Date.parse(time) })),
    });
    expect(posted.statusCode).toBe(200);
    await storedEvents(t.services, project.id);
    const local = [
      '2026-03-29T01:59:59.999+01:00',
      '2026-03-29T03:00:00.000+02:00',
      '2026-03-29T23:30:00.000+02:00',
    ];
    const range = 'from=2026-03-28T23:00:00Z&to=2026-03-29T22:00:00Z';

    const ndjson = await api().get(exportUrl(project.id, `${range}&localTime=true`), { token: user.token });
    expect(ndjson.statusCode).toBe(200);
    const records = ndjson.body
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line));
    expect(records.map((record) => [record.ts, record.local_time])).toEqual(
      times.map((time, i) => [time, local[i]]),
    );
    expect(Object.keys(records[0]).at(-1)).toBe('local_time');
    for (const [index, record] of records.entries())
      expect(Date.parse(record.local_time)).toBe(Date.parse(times[index] as string));

    const csv = await api().get(exportUrl(project.id, `${range}&format=csv&localTime=true`), {
      token: user.token,
    });
    const [header, ...rows] = parseCsv(csv.body);
    expect(header).toEqual([...EVENT_COLUMNS.map((column) => column.name), 'local_time']);
    expect(rows.map((row) => row.at(-1))).toEqual(local);

    const without = await api().get(exportUrl(project.id, `${range}&localTime=false`), { token: user.token });
    expect(JSON.parse(without.body.split('\n')[0] ?? '{}')).not.toHaveProperty('local_time');
  });

  it('refuses bad input with 400 INVALID_REQUEST', async () => {
    const { user, project } = await projectWithEvents();
    const bad = [
      '',
      `to=${TO}`,
      `from=${FROM}`,
      `from=yesterday&to=${TO}`,
      `from=${FROM}&to=2026-02-30`,
      `from=${TO}&to=${FROM}`,
      `from=${FROM}&to=${FROM}`,
      `from=${FROM}&to=${TO}&format=xlsx`,
      `from=${FROM}&to=${TO}&limit=5`,
      `from=${FROM}&from=${FROM}&to=${TO}`,
      `from=${FROM}&to=${TO}&localTime=yes`,
      `from=${FROM}&to=${TO}&localTime=1`,
      `from=${FROM}&to=${TO}&localTime=true&localTime=true`,
    ];
    for (const query of bad) {
      const response = await api().get(exportUrl(project.id, query), { token: user.token });
      expect(response.statusCode, query).toBe(400);
      expect(errorOf(response).errorCode, query).toBe('INVALID_REQUEST');
    }
  });

  it("answers no session 401 and another user's or a missing project 404", async () => {
    const { project } = await projectWithEvents();
    const stranger = await seed(t.services).user().verified();
    const query = `from=${FROM}&to=${TO}`;
    const anonymous = await api().get(exportUrl(project.id, query));
    expect(anonymous.statusCode).toBe(401);
    expect(errorOf(anonymous).errorCode).toBe('BAD_AUTHENTICATION');
    for (const id of [project.id, 'not-a-uuid', '00000000-0000-4000-8000-000000000000']) {
      const response = await api().get(exportUrl(id, query), { token: stranger.token });
      expect(response.statusCode).toBe(404);
      expect(errorOf(response).errorCode).toBe('RESOURCE_NOT_FOUND');
    }
  });
});
