import type { Annotation } from '@polyflow/contracts/annotations';
import type { AccountDb } from '../../db/database.ts';
import type { AnnotationsTable } from '../../db/schema.ts';

export type AnnotationStore = ReturnType<typeof createAnnotationStore>;

const toAnnotation = (row: AnnotationsTable): Annotation => ({
  id: row.id,
  text: row.text,
  startDate: row.start_date,
  endDate: row.end_date,
  createdBy: row.created_by,
  createdAt: row.created_at,
});

/** All SQL about annotations; every statement is scoped by the project. */
export function createAnnotationStore(db: AccountDb) {
  return {
    /** The project's annotations by start date (then creation), oldest first. */
    async listByProject(projectId: string): Promise<Annotation[]> {
      const rows = await db
        .selectFrom('annotations')
        .selectAll()
        .where('project_id', '=', projectId)
        .orderBy('start_date')
        .orderBy('created_at')
        .orderBy('id')
        .execute();
      return rows.map(toAnnotation);
    },

    async countByProject(projectId: string): Promise<number> {
      const row = await db
        .selectFrom('annotations')
        .select((eb) => eb.fn.countAll<string | number>().as('count'))
        .where('project_id', '=', projectId)
        .executeTakeFirstOrThrow();
      return Number(row.count);
    },

    async find(projectId: string, id: string): Promise<Annotation | null> {
      const row = await db
        .selectFrom('annotations')
        .selectAll()
        .where('project_id', '=', projectId)
        .where('id', '=', id)
        .executeTakeFirst();
      return row ? toAnnotation(row) : null;
    },

    async insert(row: AnnotationsTable): Promise<Annotation> {
      await db.insertInto('annotations').values(row).execute();
      return toAnnotation(row);
    },

    /** Whether the annotation was there to change. */
    async update(
      projectId: string,
      id: string,
      change: { text?: string; start_date?: string; end_date?: string | null },
    ): Promise<boolean> {
      const result = await db
        .updateTable('annotations')
        .set(change)
        .where('project_id', '=', projectId)
        .where('id', '=', id)
        .executeTakeFirst();
      return Number(result.numUpdatedRows) > 0;
    },

    async delete(projectId: string, id: string): Promise<boolean> {
      const result = await db
        .deleteFrom('annotations')
        .where('project_id', '=', projectId)
        .where('id', '=', id)
        .executeTakeFirst();
      return Number(result.numDeletedRows) > 0;
    },
  };
}
