import { beforeAll, describe, expect, it } from 'vitest';
import { errorOf } from '../support/client.ts';
import { useTestApp } from '../support/harness.ts';
import { seed } from '../support/seed.ts';
import { pageView, postBatch, storedEvents } from './support.ts';

const DAY_MS = 86_400_000;

/**
 * Accepted client times (docs/data-access-and-privacy.md): 2015-01-01T00:00:00Z to the server's receive
 * time plus 1 day. A batch with an event outside is refused whole, like any other bad field.
 */
describe('client times outside the accepted range', () => {
  const t = useTestApp('sqlite');
  let apiKey = '';
  let projectId = '';
  beforeAll(async () => {
    const { project } = await seed(t.services).user().verified().project().apiKey().domain('app.example.com');
    apiKey = project.apiKey as string;
    projectId = project.id;
  });

  it('refuses the whole batch with 400 naming the event, and stores nothing', async () => {
    const now = t.clock().getTime();
    for (const ts of [
      0,
      Date.UTC(2014, 11, 31, 23, 59, 59, 999),
      now + DAY_MS + 60_000,
      253_402_300_799_999,
      8_640_000_000_000_000,
    ]) {
      const response = await postBatch(t.app, { apiKey, events: [pageView(), pageView({ ts })] });
      expect(response.statusCode, String(ts)).toBe(400);
      expect(errorOf(response)).toMatchObject({
        errorCode: 'INVALID_REQUEST_BODY',
        details: [{ path: 'events.1.ts', message: expect.stringContaining('outside the accepted range') }],
      });
    }
    expect(await storedEvents(t.services, projectId)).toEqual([]);
  });

  it("accepts the range's ends, measured against the server's clock", async () => {
    const now = t.clock().getTime();
    const first = pageView({ ts: Date.UTC(2015, 0, 1) });
    const ahead = pageView({ ts: now + DAY_MS - 60_000 });
    const response = await postBatch(t.app, { apiKey, events: [first, ahead] });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ accepted: 2, duplicates: 0 });
    // The server's clock moved on two days: an event two days ahead of the real time is in range now.
    t.clock.advance(2 * DAY_MS);
    try {
      const later = pageView({ ts: now + 2 * DAY_MS });
      expect((await postBatch(t.app, { apiKey, events: [later] })).statusCode).toBe(200);
    } finally {
      t.clock.reset();
    }
    expect((await storedEvents(t.services, projectId)).map((row) => row.ts).sort()).toEqual(
      [Date.UTC(2015, 0, 1), now + DAY_MS - 60_000, now + 2 * DAY_MS].sort(),
    );
  });
});
