import type { Annotation } from '@polyflow/contracts/annotations';
import type { AccountDb } from '../../db/database.ts';
import { createProjectRowStore } from '../../db/project-rows.ts';
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

/** All SQL about annotations, scoped by the project; listed by start date (then creation), oldest first. */
export function createAnnotationStore(db: AccountDb) {
  return createProjectRowStore(db, 'annotations', toAnnotation, ['start_date', 'created_at', 'id']);
}
