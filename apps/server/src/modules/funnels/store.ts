import { type Funnel, type FunnelStep, FunnelStepSchema } from '@polyflow/contracts/funnels';
import { z } from 'zod';
import type { AccountDb } from '../../db/database.ts';
import { createProjectRowStore } from '../../db/project-rows.ts';
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

/** All SQL about saved funnels, scoped by the project; listed oldest first. */
export function createFunnelStore(db: AccountDb) {
  return createProjectRowStore(db, 'funnels', toFunnel, ['created_at', 'id']);
}
