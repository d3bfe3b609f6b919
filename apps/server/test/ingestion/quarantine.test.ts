import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../src/app.ts';
import { type BatchRequest, batchRecord } from '../../src/modules/event-store/log-records.ts';
import { testConfig } from '../support/harness.ts';
import { seed } from '../support/seed.ts';
import { pageView, postBatch, storedEvents } from './support.ts';

const dataDir = mkdtempSync(path.join(os.tmpdir(), 'polyflow-quarantine-'));
afterAll(() => rmSync(dataDir, { recursive: true, force: true }));
const config = testConfig(dataDir, { smtpUrl: undefined, logLevel: 'info' });
const logDir = path.join(dataDir, 'ingest-log');

const request = (project: string): BatchRequest => ({
  project,
  origin: 'app.example.com',
  receivedAt: Date.now(),
  sdk: 'polyflow',
  country: null,
  browser: null,
  os: null,
  device: null,
});

describe('the loader, given a record it cannot load', () => {
  it('keeps it in quarantine and loads everything else in its segment and after it, for every tenant', async () => {
    // Two tenants, each with events acknowledged and loaded the normal way.
    const first = await buildApp(config);
    const a = await seed(first.services).user().verified().project('A').apiKey().domain('app.example.com');
    const b = await seed(first.services).user().verified().project('B').apiKey().domain('app.example.com');
    for (const { project } of [a, b]) {
      const answer = await postBatch(first, { apiKey: project.apiKey as string, events: [pageView()] });
      expect(answer.statusCode).toBe(200);
    }
    await first.close();

    // Written straight into log segments, as a damaged disk or a validation bug would leave them.
    const goodA = pageView();
    const goodB = pageView();
    const laterB = pageView();
    const badRecord = `${batchRecord(request(a.project.id), [pageView({ userId: 'a\ud800b' })])}\n`;
    const brokenRecord = '{"request":{"project":"x"},"events":[{"id": nope\n';
    writeFileSync(
      path.join(logDir, '000000000900.ndjson'),
      `${batchRecord(request(a.project.id), [goodA])}\n${badRecord}${brokenRecord}${batchRecord(request(b.project.id), [goodB])}\n`,
    );
    writeFileSync(
      path.join(logDir, '000000000901.ndjson'),
      `${batchRecord(request(b.project.id), [laterB])}\n`,
    );

    const lines: string[] = [];
    const second = await buildApp(config, { logStream: { write: (line) => lines.push(line) } });
    try {
      await second.ready();
      const idsOf = async (projectId: string) =>
        (await storedEvents(second.services, projectId)).map((row) => row.id);
      expect(await idsOf(a.project.id)).toContain(goodA.id);
      expect(await idsOf(b.project.id)).toEqual(expect.arrayContaining([goodB.id, laterB.id]));
      expect(await idsOf(a.project.id)).toHaveLength(2);

      // The bad records are kept byte for byte, counted, and each reported once with how to look at it.
      const quarantineFile = path.join(logDir, 'quarantine.ndjson');
      expect(readFileSync(quarantineFile, 'utf8')).toBe(badRecord + brokenRecord);
      expect(second.services.events.loaderState()).toMatchObject({ quarantined: 2, pendingBytes: 0 });
      const reports = lines.filter((line) => line.includes('could not be loaded into the event store'));
      expect(reports).toHaveLength(2);
      expect(reports[0]).toContain(`tail -n 1 ${quarantineFile}`);

      // Ingestion goes on for both tenants.
      const answer = await postBatch(second, { apiKey: b.project.apiKey as string, events: [pageView()] });
      expect(answer.statusCode).toBe(200);
      expect(await idsOf(b.project.id)).toHaveLength(4);
      const status = await second.inject({
        method: 'GET',
        url: `/api/v1/projects/${b.project.id}/integration`,
        headers: { authorization: `Bearer ${b.user.token}` },
      });
      expect(status.statusCode).toBe(200);
    } finally {
      await second.close();
    }

    // The count survives a restart.
    const third = await buildApp(config, { logStream: { write: () => undefined } });
    expect(third.services.events.loaderState().quarantined).toBe(2);
    await third.close();
  });
});
