import { type Funnel, type FunnelStep, FunnelStepSchema } from '@polyflow/contracts/funnels';
import { z } from 'zod';
import type { AccountDb } from '../../db/database.ts';
import type { FunnelsTable } from '../../db/schema.ts';

export type FunnelStore = ReturnType<typeof createFunnelStore>;

const StoredSteps = z.array(FunnelStepSchema);

const toFunnel = (row: FunnelsTable): Funnel => ({
  id: row.id,
  name: row.name,
  steps: StoredSteps.parse(JSON.parse(row.steps)) as FunnelStep[],
  windowHours: Number(row.window_hours),
  createdBy: row.created_by,
  createdAt: row.created_at,
  updatedAt: row.updated_at,
});

/** All SQL about saved funnels; every statement is scoped by the project. */
export function createFunnelStore(db: AccountDb) {
  return {
    /** The project's funnels, oldest first. */
    async listByProject(projectId: string): Promise<Funnel[]> {
      const rows = await db
        .selectFrom('funnels')
        .selectAll()
        .where('project_id', '=', projectId)
        .orderBy('created_at')
        .orderBy('id')
        .execute();
      return rows.map(toFunnel);
    },

    async countByProject(projectId: string): Promise<number> {
      const row = await db
        .selectFrom('funnels')
        .select((eb) => eb.fn.countAll<string | number>().as('count'))
        .where('project_id', '=', projectId)
        .executeTakeFirstOrThrow();
      return Number(row.count);
    },

    async find(projectId: string, id: string): Promise<Funnel | null> {
      const row = await db
        .selectFrom('funnels')
        .selectAll()
        .where('project_id', '=', projectId)
        .where('id', '=', id)
        .executeTakeFirst();
      return row ? toFunnel(row) : null;
    },

    async insert(row: FunnelsTable): Promise<Funnel> {
      await db.insertInto('funnels').values(row).execute();
      return toFunnel(row);
    },

    /** Whether the funnel was there to change. */
    async update(
      projectId: string,
      id: string,
      change: { name?: string; steps?: string; window_hours?: number; updated_at: string },
    ): Promise<boolean> {
      const result = await db
        .updateTable('funnels')
        .set(change)
        .where('project_id', '=', projectId)
        .where('id', '=', id)
        .executeTakeFirst();
      return Number(result.numUpdatedRows) > 0;
    },

    async delete(projectId: string, id: string): Promise<boolean> {
      const result = await db
        .deleteFrom('funnels')
        .where('project_id', '=', projectId)
        .where('id', '=', id)
        .executeTakeFirst();
      return Number(result.numDeletedRows) > 0;
    },
  };
}
