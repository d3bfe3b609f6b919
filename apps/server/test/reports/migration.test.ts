import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'kysely';
import { describe, expect, inject, it } from 'vitest';
import { createDatabase } from '../../src/db/database.ts';
import { migrateToLatest } from '../../src/db/migrations.ts';
import { ENGINES } from '../support/harness.ts';
import { createTestDatabase } from '../support/postgres.ts';

/**
 * Migrations written on parallel branches land in any order: a store that already ran a later-numbered one
 * (011, merged first) still gets 010 when it arrives. Each migration touches its own tables.
 */
describe.each(ENGINES)('migrating on %s', (engine) => {
  it('applies 010_reports to a store that already ran a later migration', async () => {
    const dataDir = mkdtempSync(path.join(os.tmpdir(), 'polyflow-migration-'));
    const databaseUrl =
      engine === 'postgres'
        ? await createTestDatabase(inject('postgresAdminUrl'), `pf_${randomBytes(6).toString('hex')}`)
        : undefined;
    const { db } = await createDatabase({ databaseUrl, dataDir });
    try {
      await migrateToLatest(db);
      // The store as the branch merged before this one left it: everything ran but 010.
      await db.schema.dropTable('report_sends').execute();
      await db.schema.dropTable('report_subscriptions').execute();
      await sql`delete from kysely_migration where name = '010_reports'`.execute(db);

      await migrateToLatest(db);
      const ran = await sql<{ name: string }>`select name from kysely_migration order by name`.execute(db);
      expect(ran.rows.map((row) => row.name)).toContain('010_reports');
      expect(await db.selectFrom('report_sends').selectAll().execute()).toEqual([]);
    } finally {
      await db.destroy();
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
});
