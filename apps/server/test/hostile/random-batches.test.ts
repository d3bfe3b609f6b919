import { BatchSchema, type IngestEvent, SignatureStages, TxStages } from '@polyflow/contracts/events';
import fc from 'fast-check';
import { beforeAll, describe, expect, it } from 'vitest';
import { rowOfBatchEvent } from '../../src/modules/event-store/event-row.ts';
import { assertStorable } from '../../src/modules/ingestion/storable-numbers.ts';
import { graphqlClient } from '../analytics/graphql-client.ts';
import { postBatch } from '../ingestion/support.ts';
import { storeRows } from '../support/event-stores.ts';
import { useTestApp } from '../support/harness.ts';
import { seed } from '../support/seed.ts';
import { everyDashboardQuery } from './every-query.ts';

/**
 * Property: whatever valid-schema batches a project receives (fast-check makes them: every event type,
 * client times anywhere the schema allows, texts with formulas, quotes, breaks and any Unicode, big
 * numbers up to 78 digits), ingestion answers 200 or a 4xx, and afterwards every GraphQL dashboard
 * query and the export (both formats) answer without a 5xx or an INTERNAL_ERROR. The same events are
 * also stored as they are, bypassing ingestion's check of client times (not of what a store can hold), as data from before the accepted range of
 * client times was: any stored value must be shown and exported.
 */

const DAY_MS = 86_400_000;
const NOW = Date.now();

// Labels hold no control characters; free texts may break lines (packages/contracts/src/text.ts).
const label = (max: number) =>
  fc
    .oneof(
      fc.string({ maxLength: 12 }),
      fc.constantFrom('=1+1', '+SUM(A1)', '-2+3', '@cmd', '"quoted", comma', 'é中文🦊', "';--"),
      fc.string({ unit: 'grapheme', maxLength: 8 }),
    )
    .map((text) => text.replace(/[\p{Cc}\p{Cs}]/gu, '').slice(0, max));
const freeText = fc.oneof(label(200), fc.constantFrom('line\nbreak\r\n\ttab', '\r=1'));
const hexDigits = (length: number) =>
  fc.string({ unit: fc.constantFrom(...'0123456789abcdefABCDEF'), minLength: length, maxLength: length });
const address = hexDigits(40).map((digits) => `0x${digits}`);
const txHash = hexDigits(64).map((digits) => `0x${digits}`);
const decimal = fc.oneof(
  fc.bigInt({ min: 0n, max: 2n ** 127n - 1n }).map(String),
  fc.bigInt({ min: 0n, max: 10n ** 78n - 1n }).map(String),
  fc.constantFrom('0', '00000'),
);
const chainId = fc.integer({ min: 1, max: 2 ** 53 - 1 });
const clientTime = fc.oneof(
  fc.integer({ min: NOW - 400 * DAY_MS, max: NOW + DAY_MS }),
  fc.integer({ min: 0, max: 8.64e15 }),
  fc.constantFrom(0, 253_402_300_799_999, 253_402_300_800_000, 8.64e15, Date.UTC(2015, 0, 1)),
);
const id = fc.string({
  unit: fc.constantFrom(...'abcdefghijklmnop0123456789_-'),
  minLength: 8,
  maxLength: 20,
});
const maybe = <T>(arbitrary: fc.Arbitrary<T>) => fc.option(arbitrary, { nil: undefined });

const base = fc.record(
  {
    id,
    ts: clientTime,
    userId: fc.oneof(
      fc.constantFrom('u1', 'u2', 'u3'),
      label(64).filter((text) => text.length > 0),
    ),
    sessionId: fc.constantFrom('s1', 's2', 's3'),
    path: label(2048),
    referrer: maybe(fc.oneof(label(100), fc.constant('https://evil.test/?x=1'))),
    utm: maybe(
      fc.record(
        {
          source: label(256),
          medium: label(256),
          campaign: label(256),
          content: label(256),
          term: label(256),
        },
        { requiredKeys: [] },
      ),
    ),
    wallet: maybe(
      fc.record({ address, provider: label(256), rdns: label(256), chainId }, { requiredKeys: [] }),
    ),
  },
  { requiredKeys: ['id', 'ts', 'userId', 'sessionId', 'path'] },
);
const rpcError = fc.record({ code: maybe(fc.integer()), message: freeText }, { requiredKeys: ['message'] });

const event: fc.Arbitrary<IngestEvent> = fc.oneof(
  fc.tuple(base, maybe(label(256))).map(([b, title]) => ({ ...b, type: 'page_view', title })),
  fc
    .tuple(
      base,
      fc.constantFrom('wallet_detected', 'wallet_connected', 'wallet_disconnected', 'chain_changed'),
    )
    .map(([b, type]) => ({ ...b, type })),
  fc
    .tuple(
      base,
      fc.record(
        {
          txId: fc.constantFrom('tx-1', 'tx-2', 'tx-3'),
          stage: fc.constantFrom(...TxStages),
          kind: fc.constantFrom('coin', 'contract'),
          hash: txHash,
          from: address,
          to: address,
          value: decimal,
          selector: hexDigits(8).map((digits) => `0x${digits}`),
          chainId,
          gasLimit: decimal,
          gasPrice: decimal,
          maxFeePerGas: decimal,
          maxPriorityFeePerGas: decimal,
          nonce: decimal,
          gasUsed: decimal,
          effectiveGasPrice: decimal,
          blockNumber: decimal,
          replacedBy: txHash,
          error: rpcError,
        },
        { requiredKeys: ['txId', 'stage', 'kind'] },
      ),
    )
    .map(([b, tx]) => ({ ...b, ...tx, type: 'tx' })),
  fc
    .tuple(
      base,
      fc.record(
        {
          signatureId: fc.constantFrom('sig-1', 'sig-2'),
          stage: fc.constantFrom(...SignatureStages),
          method: fc.constantFrom('personal_sign', 'eth_signTypedData_v4'),
          error: rpcError,
        },
        { requiredKeys: ['signatureId', 'stage', 'method'] },
      ),
    )
    .map(([b, signature]) => ({ ...b, ...signature, type: 'signature' })),
  fc
    .tuple(
      base,
      fc.record(
        {
          source: fc.constantFrom('window', 'promise', 'wallet'),
          message: freeText,
          stack: freeText,
          code: fc.integer(),
          method: label(256),
          walletState: fc.record(
            { gasBalance: decimal, nonce: decimal, chainId, provider: label(256) },
            { requiredKeys: [] },
          ),
        },
        { requiredKeys: ['source', 'message'] },
      ),
    )
    .map(([b, error]) => ({ ...b, ...error, type: 'error' })),
) as fc.Arbitrary<IngestEvent>;

/** Objects without the keys fast-check left undefined: what a client's JSON would hold. */
const withoutUndefined = <T>(value: T): T => JSON.parse(JSON.stringify(value)) as T;

describe('random valid-schema batches, then every dashboard query and the export', () => {
  const t = useTestApp('sqlite');
  let apiKey = '';
  let projectId = '';
  let token = '';
  beforeAll(async () => {
    const { user, project } = await seed(t.services)
      .user()
      .verified()
      .project()
      .apiKey()
      .domain('app.example.com');
    apiKey = project.apiKey as string;
    projectId = project.id;
    token = user.token;
  });

  it('never answers 5xx', async () => {
    const gql = graphqlClient(t.app);
    let run = 0;
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.array(event, { minLength: 1, maxLength: 8 }), { minLength: 1, maxLength: 3 }),
        async (batches) => {
          run += 1;
          const failures: string[] = [];
          for (const [index, events] of batches.entries()) {
            const unique = withoutUndefined(events).map((item, position) => ({
              ...item,
              id: `${item.id}${run}x${index}x${position}`,
            }));
            const body = { apiKey, events: unique };
            if (!BatchSchema.safeParse(body).success) continue;
            const response = await postBatch(t.app, body);
            if (response.statusCode >= 500 || ![200, 400].includes(response.statusCode))
              failures.push(`ingest ${response.statusCode} ${response.body.slice(0, 300)}`);
            // The same events stored as they are: data from before the accepted range.
            const request = {
              project: projectId,
              origin: 'app.example.com',
              receivedAt: NOW,
              sdk: 'polyflow',
              country: null,
              browser: null,
              os: null,
              device: null,
            };
            const storable = unique.filter((item, position) => {
              try {
                assertStorable(item, position);
                return true;
              } catch {
                return false;
              }
            });
            await storeRows(
              t.services.eventStore,
              storable.map((item) => rowOfBatchEvent(request, { ...item, id: `${item.id}s` } as IngestEvent)),
            );
          }
          await t.services.events.flush();
          for (const range of [{}, { from: '2015-01-01', to: '2030-01-01' }]) {
            for (const asked of everyDashboardQuery(projectId, range)) {
              const answer = await gql(asked.query, asked.variables, { token });
              const codes = (answer.errors ?? []).map((error) => String(error.extensions?.code));
              if (answer.status >= 500 || codes.includes('INTERNAL_ERROR'))
                failures.push(
                  `${asked.name} ${JSON.stringify(range)}: ${answer.status} ${JSON.stringify(answer.errors)}`,
                );
            }
          }
          for (const format of ['ndjson', 'csv']) {
            const response = await t.app.inject({
              method: 'GET',
              url: `/api/v1/projects/${projectId}/export/events?from=1970-01-01&to=9999-12-31&format=${format}`,
              headers: { authorization: `Bearer ${token}` },
            });
            if (response.statusCode !== 200) failures.push(`export ${format}: ${response.statusCode}`);
          }
          expect(failures).toEqual([]);
        },
      ),
      { numRuns: 12, endOnFailure: true },
    );
  }, 240_000);
});
