import { execFileSync } from 'node:child_process';
import { closeSync, mkdtempSync, openSync, rmdirSync, unlinkSync, writeSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../src/app.ts';
import { pageView, postBatch, storedEvents } from './ingestion/support.ts';
import { apiClient, errorOf } from './support/client.ts';
import { testConfig } from './support/harness.ts';
import { seed } from './support/seed.ts';

/**
 * DATA_DIR on a real 64 MB tmpfs (the tests run as root, as the brief allows), filled up with a file
 * until the kernel answers ENOSPC: every store of the embedded set-up lives there.
 */
const mountPoint = mkdtempSync(path.join(os.tmpdir(), 'polyflow-full-disk-'));
const filler = path.join(mountPoint, 'filler');
beforeAll(() => {
  execFileSync('mount', ['-t', 'tmpfs', '-o', 'size=64m', 'tmpfs', mountPoint]);
});
afterAll(() => {
  // Lazily: libsql releases a closed database's files once its statements are garbage-collected.
  execFileSync('umount', ['--lazy', mountPoint]);
  rmdirSync(mountPoint);
});

/** Writes until the disk is full, in ever smaller pieces so that not even a page is left. */
function fillDisk(): void {
  const fd = openSync(filler, 'w');
  try {
    for (const size of [1024 * 1024, 64 * 1024, 4096, 512, 1]) {
      const chunk = Buffer.alloc(size, 1);
      for (;;) {
        try {
          writeSync(fd, chunk);
        } catch (error) {
          if ((error as NodeJS.ErrnoException).code === 'ENOSPC') break;
          throw error;
        }
      }
    }
  } finally {
    closeSync(fd);
  }
}

describe('a full disk under DATA_DIR', () => {
  it('answers 503 STORAGE_FULL with Retry-After, says so in the log, loses nothing acknowledged and recovers by itself', async () => {
    const lines: string[] = [];
    const config = testConfig(mountPoint, {
      smtpUrl: undefined,
      logLevel: 'info',
      healthMinFreeDiskBytes: 1024 * 1024,
      metricsToken: 'storage-full-metrics-token-0123',
    });
    const app = await buildApp(config, { logStream: { write: (line) => lines.push(line) } });
    try {
      await app.ready();
      const { project, user } = await seed(app.services)
        .user()
        .verified()
        .project()
        .apiKey()
        .domain('app.example.com');
      const apiKey = project.apiKey as string;
      const before = pageView();
      expect((await postBatch(app, { apiKey, events: [before] })).statusCode).toBe(200);
      await app.services.events.flush();

      fillDisk();
      const refused = Array.from({ length: 10 }, () => pageView());
      for (const event of refused) {
        const response = await postBatch(app, { apiKey, events: [event] });
        expect(response.statusCode).toBe(503);
        expect(errorOf(response).errorCode).toBe('STORAGE_FULL');
        expect(response.headers['retry-after']).toBe('30');
      }
      // The accounts store (SQLite, same disk) answers the same way, never with a 500.
      const created = await apiClient(app).post('projects', {
        token: user.token,
        body: { name: 'On a full disk' },
      });
      expect([201, 503]).toContain(created.statusCode);
      if (created.statusCode === 503) expect(errorOf(created).errorCode).toBe('STORAGE_FULL');
      const healthWhileFull = await app.inject({
        method: 'GET',
        url: '/api/v1/health',
        headers: { authorization: 'Bearer storage-full-metrics-token-0123' },
      });
      expect(healthWhileFull.statusCode).toBe(503);
      expect(healthWhileFull.json().checks.disk.status).toBe('failing');
      // Told once, with what to do.
      const told = lines.filter((line) => line.includes('storage is full'));
      expect(told).toHaveLength(1);
      expect(told[0]).toContain('Free space on the disk holding DATA_DIR');

      unlinkSync(filler);
      const after = pageView();
      const resumed = await postBatch(app, { apiKey, events: [after] });
      expect(resumed.statusCode).toBe(200);
      // A refused batch sent again is stored: refusing it did not mark it as seen.
      expect((await postBatch(app, { apiKey, events: [refused[0] as never] })).statusCode).toBe(200);
      const ids = (await storedEvents(app.services, project.id)).map((row) => row.id).sort();
      expect(ids).toEqual([before.id, after.id, refused[0]?.id].sort());
      expect((await app.inject({ method: 'GET', url: '/api/v1/health' })).statusCode).toBe(200);
    } finally {
      await app.close();
    }
  });
});
