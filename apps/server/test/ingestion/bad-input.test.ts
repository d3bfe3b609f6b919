import { MAX_BATCH_BYTES } from '@polyflow/contracts/events';
import { beforeAll, describe, expect, it } from 'vitest';
import { errorOf } from '../support/client.ts';
import { useTestApp } from '../support/harness.ts';
import { seed } from '../support/seed.ts';
import { pageView, postBatch, storedEvents } from './support.ts';

const harness = useTestApp('sqlite');
let apiKey = '';
let projectId = '';

beforeAll(async () => {
  const { project } = await seed(harness.services)
    .user()
    .verified()
    .project('Shop')
    .apiKey()
    .domain('app.example.com');
  apiKey = project.apiKey as string;
  projectId = project.id;
});

const valid = () => pageView();
const cases: [string, () => string | object, number, string][] = [
  ['malformed JSON', () => '{"apiKey": "x", "events": [', 400, 'INVALID_REQUEST_BODY'],
  ['empty body', () => '', 400, 'INVALID_REQUEST_BODY'],
  ['a JSON array', () => '[1,2,3]', 400, 'INVALID_REQUEST_BODY'],
  ['apiKey missing', () => ({ events: [valid()] }), 400, 'INVALID_REQUEST_BODY'],
  ['apiKey a number', () => ({ apiKey: 42, events: [valid()] }), 400, 'INVALID_REQUEST_BODY'],
  ['no events', () => ({ apiKey, events: [] }), 400, 'INVALID_REQUEST_BODY'],
  ['101 events', () => ({ apiKey, events: Array.from({ length: 101 }, valid) }), 400, 'INVALID_REQUEST_BODY'],
  [
    'unknown top-level field',
    () => ({ apiKey, events: [valid()], admin: true }),
    400,
    'INVALID_REQUEST_BODY',
  ],
  [
    'unknown event field',
    () => ({ apiKey, events: [valid(), { ...valid(), isAdmin: true }] }),
    400,
    'INVALID_REQUEST_BODY',
  ],
  [
    'unknown event type',
    () => ({ apiKey, events: [{ ...valid(), type: 'drop_table' }] }),
    400,
    'INVALID_REQUEST_BODY',
  ],
  ['ts a string', () => ({ apiKey, events: [{ ...valid(), ts: 'yesterday' }] }), 400, 'INVALID_REQUEST_BODY'],
  [
    'forged id with quotes',
    () => ({ apiKey, events: [{ ...valid(), id: "x'); DROP TABLE events;--" }] }),
    400,
    'INVALID_REQUEST_BODY',
  ],
  ['id too short', () => ({ apiKey, events: [{ ...valid(), id: 'a' }] }), 400, 'INVALID_REQUEST_BODY'],
  [
    'huge path',
    () => ({ apiKey, events: [{ ...valid(), path: 'x'.repeat(30_000) }] }),
    400,
    'INVALID_REQUEST_BODY',
  ],
  [
    'bad wallet address',
    () => ({ apiKey, events: [{ ...valid(), wallet: { address: '0x123' } }] }),
    400,
    'INVALID_REQUEST_BODY',
  ],
  [
    'value beyond 2^127',
    () => ({
      apiKey,
      events: [
        valid(),
        { ...valid(), type: 'tx', txId: 't', stage: 'requested', kind: 'coin', value: '9'.repeat(60) },
      ],
    }),
    400,
    'INVALID_REQUEST_BODY',
  ],
  [
    'negative chain id',
    () => ({ apiKey, events: [{ ...valid(), type: 'chain_changed', wallet: { chainId: -1 } }] }),
    400,
    'INVALID_REQUEST_BODY',
  ],
  [
    '__proto__ key',
    () => `{"apiKey":"${apiKey}","events":[],"__proto__":{"polluted":1}}`,
    400,
    'INVALID_REQUEST_BODY',
  ],
];

describe('ingestion bad input: only 4xx, nothing stored, the server keeps serving', () => {
  it.each(cases)('%s', async (_name, build, status, code) => {
    const body = build();
    const response = await postBatch(harness.app, typeof body === 'string' ? body : JSON.stringify(body));
    expect(response.statusCode).toBe(status);
    expect(errorOf(response).errorCode).toBe(code);
    expect(response.body).not.toMatch(/at .*\.ts:\d+/);
    expect(await storedEvents(harness.services, projectId)).toHaveLength(0);
  });

  it('names the event index and field of the first problem', async () => {
    const response = await postBatch(harness.app, {
      apiKey,
      events: [valid(), valid(), { ...valid(), sessionId: 7 } as never],
    });
    expect(response.statusCode).toBe(400);
    const error = errorOf(response);
    expect(error.message).toMatch(/event 2, field "sessionId"/);
    expect(error.details).toEqual([expect.objectContaining({ path: 'events.2.sessionId' })]);
  });

  it('refuses a body over 64 KB with 413', async () => {
    const events = Array.from({ length: 40 }, () => ({ ...valid(), path: `/${'p'.repeat(1900)}` }));
    const body = JSON.stringify({ apiKey, events });
    expect(body.length).toBeGreaterThan(MAX_BATCH_BYTES);
    const response = await postBatch(harness.app, body);
    expect(response.statusCode).toBe(413);
    expect(errorOf(response).errorCode).toBe('PAYLOAD_TOO_LARGE');
  });

  it('refuses other content types with 415', async () => {
    for (const contentType of [
      'application/x-www-form-urlencoded',
      'multipart/form-data; boundary=x',
      'application/xml',
    ]) {
      const response = await postBatch(harness.app, { apiKey, events: [valid()] }, { contentType });
      expect(response.statusCode, contentType).toBe(415);
      expect(errorOf(response).errorCode).toBe('UNSUPPORTED_MEDIA_TYPE');
    }
  });

  it('accepts application/json as well as text/plain, and still serves after all of the above', async () => {
    expect(await storedEvents(harness.services, projectId)).toHaveLength(0);
    const response = await postBatch(
      harness.app,
      { apiKey, events: [valid()] },
      { contentType: 'application/json' },
    );
    expect(response.json()).toEqual({ accepted: 1, duplicates: 0 });
    expect((await harness.app.inject({ method: 'GET', url: '/api/v1/health' })).statusCode).toBe(200);
  });
});
