import type { IngestEvent } from '@polyflow/contracts/events';
import { beforeAll, describe, expect, it } from 'vitest';
import { graphqlClient } from '../analytics/graphql-client.ts';
import { parseCsv } from '../event-export/support.ts';
import { everyEventShape } from '../ingestion/wire-events.ts';
import { useTestApp } from '../support/harness.ts';
import { seed } from '../support/seed.ts';
import { everyDashboardQuery } from './every-query.ts';
import { storeAsReceived } from './store-events.ts';

/**
 * Times ingestion once accepted (0 to 8.64e15 ms, the schema's bound), stored before the accepted range
 * (docs/data-access-and-privacy.md) existed: every dashboard query and the export must still answer.
 */
const EXTREME_TIMES = [
  0, 1, 86_399_999, 253_402_300_799_999, 253_402_300_800_000, 8_639_999_999_999_999, 8.64e15,
];

describe('stored events at any client time the schema allowed', () => {
  const t = useTestApp('sqlite');
  let projectId = '';
  let token = '';
  beforeAll(async () => {
    const { user, project } = await seed(t.services).user().verified().project();
    projectId = project.id;
    token = user.token;
    const events = EXTREME_TIMES.flatMap((ts, index) =>
      everyEventShape().map((event) => ({ ...event, id: `${event.id}_${index}`, ts }) as IngestEvent),
    );
    await storeAsReceived(t.services.eventStore, project.id, events);
  });

  for (const [label, range] of [
    ['the default range', {}],
    ['the widest range', { from: '1970-01-01T00:00:00Z', to: '9999-12-31T23:59:59.999Z' }],
    ['the last day a range can name', { from: '9999-12-31T00:00:00Z', to: '9999-12-31T23:59:59.999Z' }],
    ['only from', { from: '2020-01-01T00:00:00Z' }],
    ['only to', { to: '2030-01-01T00:00:00Z' }],
  ] as const) {
    it(`answers every dashboard query over ${label}, never INTERNAL_ERROR`, async () => {
      const gql = graphqlClient(t.app);
      const failures: string[] = [];
      const answered: string[] = [];
      for (const asked of everyDashboardQuery(projectId, range)) {
        const answer = await gql(asked.query, asked.variables, { token });
        const codes = (answer.errors ?? []).map((error) => String(error.extensions?.code));
        if (!answer.errors?.length) answered.push(asked.name);
        if (answer.status >= 500 || codes.includes('INTERNAL_ERROR')) {
          failures.push(`${asked.name}: ${answer.status} ${JSON.stringify(answer.errors)}`);
        }
      }
      expect(failures).toEqual([]);
      // Asked for real, not refused as bad input.
      expect(answered).toEqual(
        expect.arrayContaining([
          'analyticsOverview',
          'totalTransactions',
          'acquisitionFunnel',
          'attribution',
        ]),
      );
    });
  }

  it('exports every stored event of the widest range a caller can name, in both formats', async () => {
    const readable = EXTREME_TIMES.filter((ts) => ts < Date.UTC(9999, 11, 31, 23, 59, 59, 999));
    for (const format of ['ndjson', 'csv', 'ndjson&localTime=true', 'csv&localTime=true']) {
      const response = await t.app.inject({
        method: 'GET',
        url: `/api/v1/projects/${projectId}/export/events?from=1970-01-01&to=9999-12-31T23:59:59.999Z&format=${format}`,
        headers: { authorization: `Bearer ${token}` },
      });
      expect(response.statusCode).toBe(200);
      const records = format.startsWith('csv')
        ? parseCsv(response.body).slice(1)
        : response.body.trim().split('\n');
      expect(records).toHaveLength(readable.length * everyEventShape().length);
    }
  });

  it('exports them with local times in a zone 14 hours ahead and one 11 hours behind', async () => {
    const readable = EXTREME_TIMES.filter((ts) => ts < Date.UTC(9999, 11, 31, 23, 59, 59, 999));
    for (const timeZone of ['Pacific/Kiritimati', 'Pacific/Pago_Pago']) {
      const set = await t.app.inject({
        method: 'PATCH',
        url: `/api/v1/projects/${projectId}`,
        headers: { authorization: `Bearer ${token}`, cookie: 'XSRF-TOKEN=x', 'x-xsrf-token': 'x' },
        payload: { timeZone },
      });
      expect(set.statusCode).toBe(200);
      const response = await t.app.inject({
        method: 'GET',
        url: `/api/v1/projects/${projectId}/export/events?from=1970-01-01&to=9999-12-31T23:59:59.999Z&localTime=true`,
        headers: { authorization: `Bearer ${token}` },
      });
      expect(response.statusCode).toBe(200);
      const records = response.body
        .trim()
        .split('\n')
        .map((line) => JSON.parse(line));
      expect(records).toHaveLength(readable.length * everyEventShape().length);
      for (const record of records) expect(Date.parse(record.local_time)).toBe(Date.parse(record.ts));
    }
  });
});
