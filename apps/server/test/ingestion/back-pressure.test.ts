import { describe, expect, it } from 'vitest';
import { errorOf } from '../support/client.ts';
import { useTestApp } from '../support/harness.ts';
import { seed } from '../support/seed.ts';
import { pageView, postBatch, storedEvents } from './support.ts';

const LIMIT = 40_000;
const harness = useTestApp('sqlite', { ingestBacklogMaxBytes: LIMIT });

async function project(name: string) {
  const { project: created } = await seed(harness.services)
    .user()
    .verified()
    .project(name)
    .apiKey()
    .domain('app.example.com');
  return { id: created.id, apiKey: created.apiKey as string };
}

/** Holds every load of the ingestion log until `release` (the backlog then only grows). */
function holdLoads() {
  const store = harness.services.eventStore;
  const loadSegment = store.loadSegment;
  let release: () => void = () => undefined;
  const released = new Promise<void>((resolve) => {
    release = resolve;
  });
  store.loadSegment = async (file) => {
    await released;
    return loadSegment(file);
  };
  return () => {
    store.loadSegment = loadSegment;
    release();
  };
}

describe('ingestion: back-pressure shared among projects', () => {
  it("refuses a flooding project once it holds its share of the backlog, and keeps taking the others' events", async () => {
    const heavy = await project('Heavy');
    const light = await project('Light');
    const release = holdLoads();
    let heavyAccepted = 0;
    let lightAccepted = 0;
    try {
      const batch = (apiKey: string) => ({ apiKey, events: Array.from({ length: 20 }, () => pageView()) });
      let refused: Awaited<ReturnType<typeof postBatch>> | undefined;
      for (let i = 0; i < 200 && !refused; i++) {
        const response = await postBatch(harness.app, batch(heavy.apiKey));
        if (response.statusCode === 200) heavyAccepted += 20;
        else refused = response;
      }
      // Refused once the backlog passed the limit, all of it this project's.
      expect(heavyAccepted).toBeGreaterThan(0);
      expect(refused?.statusCode).toBe(503);
      expect(errorOf(refused as NonNullable<typeof refused>).errorCode).toBe('INGESTION_BACKLOG');
      expect(refused?.headers['retry-after']).toBe('5');
      expect(harness.services.events.backlog()).toBe('over');

      // Another project's batches still go in, up to its own share of the limit.
      for (let i = 0; i < 3; i++) {
        const response = await postBatch(harness.app, batch(light.apiKey));
        expect(response.statusCode).toBe(200);
        lightAccepted += 20;
      }
      // The flooding project is still refused, and before its body is parsed: the SDK's bodies begin
      // with the key, which is all it takes (this one is not JSON after it).
      expect((await postBatch(harness.app, batch(heavy.apiKey))).statusCode).toBe(503);
      const unparsed = await postBatch(harness.app, `{"apiKey":"${heavy.apiKey}", not json`);
      expect(unparsed.statusCode).toBe(503);
      // The same body for the other project is parsed, and refused for what it is.
      const invalid = await postBatch(harness.app, `{"apiKey":"${light.apiKey}", not json`);
      expect(invalid.statusCode).toBe(400);
    } finally {
      release();
    }

    // Everything acknowledged is stored; once loaded, the flooding project is welcome again.
    expect(await storedEvents(harness.services, heavy.id)).toHaveLength(heavyAccepted);
    expect(await storedEvents(harness.services, light.id)).toHaveLength(lightAccepted);
    expect(harness.services.events.backlog()).toBe('clear');
    const again = await postBatch(harness.app, { apiKey: heavy.apiKey, events: [pageView()] });
    expect(again.statusCode).toBe(200);
  });

  it('refuses every project beyond twice the limit', async () => {
    const projects = await Promise.all(Array.from({ length: 16 }, (_, index) => project(`P${index}`)));
    const release = holdLoads();
    try {
      const batch = (apiKey: string) => ({ apiKey, events: Array.from({ length: 20 }, () => pageView()) });
      // Each project holds at most its share and one batch more: many projects together pass twice the limit.
      let full = false;
      for (let round = 0; round < 100 && !full; round++) {
        for (const p of projects) {
          const response = await postBatch(harness.app, batch(p.apiKey));
          if (response.statusCode === 503) full = harness.services.events.backlog() === 'full';
          if (full) break;
        }
      }
      expect(full).toBe(true);
      const fresh = await project('Fresh');
      const response = await postBatch(harness.app, batch(fresh.apiKey));
      expect(response.statusCode).toBe(503);
      expect(errorOf(response).errorCode).toBe('INGESTION_BACKLOG');
    } finally {
      release();
    }
    await harness.services.events.flush();
    expect(harness.services.events.backlog()).toBe('clear');
  });
});
