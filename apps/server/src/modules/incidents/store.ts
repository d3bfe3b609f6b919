import { z } from 'zod';
import type { AccountDb } from '../../db/database.ts';

/** The owner's decision on one incident; an incident without one is open. */
export type IncidentState = { incidentId: string; status: 'resolved' | 'ignored'; changedAtMs: number };

export type IncidentStateStore = ReturnType<typeof createIncidentStateStore>;

const RowSchema = z.object({
  incident_id: z.string(),
  status: z.enum(['resolved', 'ignored']),
  changed_at: z.iso.datetime(),
});

/** All SQL about incident statuses, in the account store (SQLite or PostgreSQL) beside the projects. */
export function createIncidentStateStore(db: AccountDb) {
  return {
    async statesOf(projectId: string): Promise<Map<string, IncidentState>> {
      const rows = await db
        .selectFrom('incident_states')
        .select(['incident_id', 'status', 'changed_at'])
        .where('project_id', '=', projectId)
        .execute();
      return new Map(
        rows.map((raw) => {
          const row = RowSchema.parse(raw);
          const state = {
            incidentId: row.incident_id,
            status: row.status,
            changedAtMs: Date.parse(row.changed_at),
          };
          return [row.incident_id, state] as const;
        }),
      );
    },

    /** Every resolved incident of these projects, with when it was resolved. */
    async resolvedIn(
      projectIds: readonly string[],
    ): Promise<{ projectId: string; incidentId: string; resolvedAtMs: number }[]> {
      if (projectIds.length === 0) return [];
      const rows = await db
        .selectFrom('incident_states')
        .select(['project_id', 'incident_id', 'changed_at'])
        .where('project_id', 'in', [...projectIds])
        .where('status', '=', 'resolved')
        .execute();
      return rows.map((row) => ({
        projectId: row.project_id,
        incidentId: row.incident_id,
        resolvedAtMs: Date.parse(z.iso.datetime().parse(row.changed_at)),
      }));
    },

    /** Resolve or ignore (replacing an earlier decision), or reopen: `open` deletes the decision. */
    async setState(input: {
      projectId: string;
      incidentId: string;
      status: 'open' | 'resolved' | 'ignored';
      changedAt: Date;
      changedBy: string;
    }): Promise<void> {
      if (input.status === 'open') {
        await db
          .deleteFrom('incident_states')
          .where('project_id', '=', input.projectId)
          .where('incident_id', '=', input.incidentId)
          .execute();
        return;
      }
      const values = {
        project_id: input.projectId,
        incident_id: input.incidentId,
        status: input.status,
        changed_at: input.changedAt.toISOString(),
        changed_by: input.changedBy,
      };
      await db
        .insertInto('incident_states')
        .values(values)
        .onConflict((conflict) =>
          conflict.columns(['project_id', 'incident_id']).doUpdateSet({
            status: values.status,
            changed_at: values.changed_at,
            changed_by: values.changed_by,
          }),
        )
        .execute();
    },
  };
}
