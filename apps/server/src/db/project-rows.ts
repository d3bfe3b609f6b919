import type { Kysely } from 'kysely';
import type { AccountDb } from './database.ts';
import type { Database } from './schema.ts';

/** The tables of what a project saves by id and nothing else: each row holds its project's id. */
export type ProjectRowTable = 'annotations' | 'funnels' | 'goals';

/** The columns every one of those tables has; the store's statements use no others. */
type Keyed = { id: string; project_id: string };

/**
 * The SQL of a table of things a project saves (annotations, funnels, goals): list, count, find, insert,
 * update and delete, every statement scoped by the project, so one project's id never reaches another's rows.
 * `order` lists the columns the list is sorted by, oldest first; `toItem` turns a row into what the API answers.
 */
export function createProjectRowStore<Name extends ProjectRowTable, Item>(
  db: AccountDb,
  table: Name,
  toItem: (row: Database[Name]) => Item,
  order: readonly (keyof Database[Name] & string)[],
) {
  // Kysely checks a statement against one named table, not a table named by a type parameter: the
  // statements are written over the columns all three share, and the rows typed back as the table's.
  const rows = db as unknown as Kysely<{ saved: Keyed }>;
  const named = table as unknown as 'saved';
  return {
    /** The project's rows in `order`. */
    async listByProject(projectId: string): Promise<Item[]> {
      let query = rows.selectFrom(named).selectAll().where('project_id', '=', projectId);
      for (const column of order) query = query.orderBy(column as 'id');
      const found = await query.execute();
      return found.map((row) => toItem(row as unknown as Database[Name]));
    },

    async countByProject(projectId: string): Promise<number> {
      const row = await rows
        .selectFrom(named)
        .select((eb) => eb.fn.countAll<string | number>().as('count'))
        .where('project_id', '=', projectId)
        .executeTakeFirstOrThrow();
      return Number(row.count);
    },

    async find(projectId: string, id: string): Promise<Item | null> {
      const row = await rows
        .selectFrom(named)
        .selectAll()
        .where('project_id', '=', projectId)
        .where('id', '=', id)
        .executeTakeFirst();
      return row ? toItem(row as unknown as Database[Name]) : null;
    },

    async insert(row: Database[Name]): Promise<Item> {
      await rows
        .insertInto(named)
        .values(row as unknown as Keyed)
        .execute();
      return toItem(row);
    },

    /** Whether the row was there to change. */
    async update(
      projectId: string,
      id: string,
      change: Partial<Omit<Database[Name], keyof Keyed>>,
    ): Promise<boolean> {
      const result = await rows
        .updateTable(named)
        .set(change as unknown as Partial<Keyed>)
        .where('project_id', '=', projectId)
        .where('id', '=', id)
        .executeTakeFirst();
      return Number(result.numUpdatedRows) > 0;
    },

    async delete(projectId: string, id: string): Promise<boolean> {
      const result = await rows
        .deleteFrom(named)
        .where('project_id', '=', projectId)
        .where('id', '=', id)
        .executeTakeFirst();
      return Number(result.numDeletedRows) > 0;
    },
  };
}
