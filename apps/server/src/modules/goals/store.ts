import type { Goal } from '@polyflow/contracts/goals';
import type { AccountDb } from '../../db/database.ts';
import { createProjectRowStore } from '../../db/project-rows.ts';
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

/** All SQL about goals, scoped by the project; listed oldest first. */
export function createGoalStore(db: AccountDb) {
  return createProjectRowStore(db, 'goals', toGoal, ['created_at', 'id']);
}
