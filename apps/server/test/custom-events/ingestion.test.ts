import { beforeAll, describe, expect, it } from 'vitest';
import { MAX_EVENT_NAMES, MAX_PROPERTY_KEYS } from '../../src/modules/ingestion/vocabulary.ts';
import { pageView, postBatch, storedEvents } from '../ingestion/support.ts';
import { useTestApp } from '../support/harness.ts';
import { seed } from '../support/seed.ts';

/** Custom events and identifies through POST /api/v1/events: stored as sent, bad ones refused whole (docs/custom-events.md). */
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

const custom = (name: string, props?: unknown) => pageView({ type: 'custom', name, props } as never);
const identify = (appUserId: string, traits?: unknown) =>
  pageView({ type: 'identify', appUserId, traits } as never);
const post = (events: unknown[], release?: string) =>
  postBatch(harness.app, { apiKey, release, events } as never);

describe('custom events through the SDK route', () => {
  it('stores a custom event with its properties and an identify with its traits', async () => {
    const swap = custom('swap_quote_shown', { pair: 'ETH/USDC', amount: 1.5, fast: true });
    const who = identify('acct-42', { plan: 'pro' });
    const answer = await post([swap, who, pageView()], 'v1.2.3');
    expect(answer.statusCode).toBe(200);
    const rows = await storedEvents(harness.services, projectId);
    const stored = rows.find((row) => row.id === swap.id);
    expect(stored).toMatchObject({ type: 'custom', event_name: 'swap_quote_shown', app_user_id: null });
    expect(JSON.parse(stored?.props ?? 'null')).toEqual({ pair: 'ETH/USDC', amount: 1.5, fast: true });
    const identified = rows.find((row) => row.id === who.id);
    expect(identified).toMatchObject({ type: 'identify', app_user_id: 'acct-42', event_name: null });
    expect(JSON.parse(identified?.props ?? 'null')).toEqual({ plan: 'pro' });
  });

  it.each([
    ['a name with a control character', custom('swap\u0007')],
    ['an empty name', custom('')],
    ['a name of 65 characters', custom('n'.repeat(65))],
    ['21 properties', custom('many', Object.fromEntries(Array.from({ length: 21 }, (_, i) => [`k${i}`, i])))],
    ['a nested object', custom('nested', { route: { from: 'op' } })],
    ['an array value', custom('listed', { hops: ['op', 'arb'] })],
    ['a null value', custom('nulled', { x: null })],
    ['a key with a control character', custom('keyed', { 'a\nb': 1 })],
    ['a value of 257 characters', custom('long', { note: 'x'.repeat(257) })],
    ['traits that are an array', identify('acct-1', ['pro'])],
    ['an app user id with a control character', identify('acct\u0000')],
    ['a release too long', pageView()],
  ])('refuses a batch with %s, storing nothing of it', async (what, event) => {
    const good = pageView();
    const release = what === 'a release too long' ? 'r'.repeat(65) : undefined;
    const answer = await post([good, event], release);
    expect(answer.statusCode).toBe(400);
    expect(answer.json().errorCode).toBe('INVALID_REQUEST_BODY');
    const ids = (await storedEvents(harness.services, projectId)).map((row) => row.id);
    expect(ids).not.toContain(good.id);
  });

  it(`drops the event of the ${MAX_EVENT_NAMES + 1}st name and the ${MAX_PROPERTY_KEYS + 1}st key, stores the rest of its batch, and keeps known ones`, async () => {
    const { project } = await seed(harness.services)
      .user()
      .verified()
      .project('Limits')
      .apiKey()
      .domain('app.example.com');
    const key = project.apiKey as string;
    const send = (events: unknown[]) => postBatch(harness.app, { apiKey: key, events } as never);
    for (let start = 0; start < MAX_EVENT_NAMES; start += 100) {
      const names = Array.from({ length: 100 }, (_, i) => custom(`event_${start + i}`));
      expect((await send(names)).statusCode).toBe(200);
    }
    // Another event beside custom events over the limit: it is stored, they are not (null: the page view's).
    const good = pageView();
    const overName = custom('event_500');
    const over = await send([good, custom('event_known_0'), overName]);
    expect(over.statusCode, over.body).toBe(200);
    expect(over.json()).toEqual({
      accepted: 1,
      duplicates: 0,
      dropped: [
        {
          index: 1,
          errorCode: 'CUSTOM_EVENT_LIMIT',
          message: `the project has ${MAX_EVENT_NAMES} custom event names already; "event_known_0" would be one more`,
        },
        {
          index: 2,
          errorCode: 'CUSTOM_EVENT_LIMIT',
          message: `the project has ${MAX_EVENT_NAMES} custom event names already; "event_500" would be one more`,
        },
      ],
    });
    // Names already known still pass.
    const known = await send([custom('event_499', { k0: 1 })]);
    expect(known.json()).toEqual({ accepted: 1, duplicates: 0 });
    for (let start = 1; start < MAX_PROPERTY_KEYS; start += 20) {
      const props = Object.fromEntries(
        Array.from({ length: 20 }, (_, i) => [`k${start + i}`, i]).filter(
          ([k]) => Number(String(k).slice(1)) < MAX_PROPERTY_KEYS,
        ),
      );
      expect((await send([custom('event_0', props)])).statusCode).toBe(200);
    }
    const overKey = identify('acct-1', { k100: true });
    const keyOver = await send([overKey, custom('event_1', { k5: 'known' })]);
    expect(keyOver.json()).toMatchObject({
      accepted: 1,
      dropped: [{ index: 0, errorCode: 'CUSTOM_EVENT_LIMIT' }],
    });
    const stored = await storedEvents(harness.services, project.id);
    const ids = new Set(stored.map((row) => row.id));
    expect(ids.has(good.id)).toBe(true);
    expect(ids.has(overName.id)).toBe(false);
    expect(ids.has(overKey.id)).toBe(false);
    expect(new Set(stored.map((row) => row.event_name)).size).toBe(MAX_EVENT_NAMES + 1);
  });
});
