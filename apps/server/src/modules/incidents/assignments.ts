import type { IncidentAssignee } from '@polyflow/contracts/incidents';
import type { AccountDb } from '../../db/database.ts';

export type IncidentAssignmentStore = ReturnType<typeof createIncidentAssignmentStore>;

/** A foreign-key violation on either engine: the assignee stopped being a member meanwhile. */
function isForeignKeyViolation(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  return code === '23503' || code === 'SQLITE_CONSTRAINT_FOREIGNKEY';
}

/**
 * All SQL about incident assignments, in the account store beside the members. A row's (project, user)
 * references the membership with ON DELETE CASCADE: a member who leaves or is removed loses their
 * assignments, and an assignment can never name a non-member.
 */
export function createIncidentAssignmentStore(db: AccountDb) {
  return {
    /** Each assigned incident of the project with its member's current email. */
    async assigneesOf(projectId: string): Promise<Map<string, IncidentAssignee>> {
      const rows = await db
        .selectFrom('incident_assignments')
        .innerJoin('users', 'users.id', 'incident_assignments.user_id')
        .select([
          'incident_assignments.incident_id',
          'incident_assignments.user_id',
          'incident_assignments.assigned_at',
          'users.email',
        ])
        .where('incident_assignments.project_id', '=', projectId)
        .execute();
      return new Map(
        rows.map((row) => [
          row.incident_id,
          { userId: row.user_id, email: row.email, assignedAt: row.assigned_at },
        ]),
      );
    },

    /** The member's email, or null when the user is not a member of the project. */
    async memberEmail(projectId: string, userId: string): Promise<string | null> {
      const row = await db
        .selectFrom('project_members')
        .innerJoin('users', 'users.id', 'project_members.user_id')
        .select('users.email')
        .where('project_members.project_id', '=', projectId)
        .where('project_members.user_id', '=', userId)
        .executeTakeFirst();
      return row?.email ?? null;
    },

    /**
     * Assigns (replacing an earlier assignee) or, with a null user, unassigns. Answers false when the user
     * is not a member at the time of the write (nothing written).
     */
    async assign(input: {
      projectId: string;
      incidentId: string;
      userId: string | null;
      at: Date;
      by: string;
    }): Promise<boolean> {
      if (input.userId === null) {
        await db
          .deleteFrom('incident_assignments')
          .where('project_id', '=', input.projectId)
          .where('incident_id', '=', input.incidentId)
          .execute();
        return true;
      }
      const values = {
        project_id: input.projectId,
        incident_id: input.incidentId,
        user_id: input.userId,
        assigned_at: input.at.toISOString(),
        assigned_by: input.by,
      };
      try {
        await db
          .insertInto('incident_assignments')
          .values(values)
          .onConflict((conflict) =>
            conflict.columns(['project_id', 'incident_id']).doUpdateSet({
              user_id: values.user_id,
              assigned_at: values.assigned_at,
              assigned_by: values.assigned_by,
            }),
          )
          .execute();
        return true;
      } catch (error) {
        if (isForeignKeyViolation(error)) return false;
        throw error;
      }
    },
  };
}
