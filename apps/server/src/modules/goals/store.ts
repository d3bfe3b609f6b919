import type { Goal } from '@polyflow/contracts/goals';
import type { AccountDb } from '../../db/database.ts';
import type { GoalsTable } from '../../db/schema.ts';

export type GoalStore = ReturnType<typeof createGoalStore>;

const toGoal = (row: GoalsTable): Goal => ({
  id: row.id,
  name: row.name,
  kind: row.kind,
  eventName: row.event_name,
  propertyKey: row.property_key,
  propertyValue: row.property_value,
  pathPattern: row.path_pattern,
  createdBy: row.created_by,
  createdAt: row.created_at,
});

export type GoalDefinitionColumns = Pick<
  GoalsTable,
  'name' | 'kind' | 'event_name' | 'property_key' | 'property_value' | 'path_pattern'
>;

/** All SQL about goals; every statement is scoped by the project. */
export function createGoalStore(db: AccountDb) {
  return {
    /** The project's goals, oldest first. */
    async listByProject(projectId: string): Promise<Goal[]> {
      const rows = await db
        .selectFrom('goals')
        .selectAll()
        .where('project_id', '=', projectId)
        .orderBy('created_at')
        .orderBy('id')
        .execute();
      return rows.map(toGoal);
    },

    async countByProject(projectId: string): Promise<number> {
      const row = await db
        .selectFrom('goals')
        .select((eb) => eb.fn.countAll<string | number>().as('count'))
        .where('project_id', '=', projectId)
        .executeTakeFirstOrThrow();
      return Number(row.count);
    },

    async find(projectId: string, id: string): Promise<Goal | null> {
      const row = await db
        .selectFrom('goals')
        .selectAll()
        .where('project_id', '=', projectId)
        .where('id', '=', id)
        .executeTakeFirst();
      return row ? toGoal(row) : null;
    },

    async insert(row: GoalsTable): Promise<Goal> {
      await db.insertInto('goals').values(row).execute();
      return toGoal(row);
    },

    /** Whether the goal was there to change. */
    async update(projectId: string, id: string, change: GoalDefinitionColumns): Promise<boolean> {
      const result = await db
        .updateTable('goals')
        .set(change)
        .where('project_id', '=', projectId)
        .where('id', '=', id)
        .executeTakeFirst();
      return Number(result.numUpdatedRows) > 0;
    },

    async delete(projectId: string, id: string): Promise<boolean> {
      const result = await db
        .deleteFrom('goals')
        .where('project_id', '=', projectId)
        .where('id', '=', id)
        .executeTakeFirst();
      return Number(result.numDeletedRows) > 0;
    },
  };
}
