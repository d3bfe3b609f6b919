import { type Connection, rowsOf } from '../../duckdb/sql.ts';
import { type CustomEventVocabulary, VocabularyRowSchema, vocabularyOf } from './question.ts';

/** The project's distinct custom event names and property keys (docs/custom-events.md#limits). */
export async function customEventVocabulary(
  connection: Connection,
  projectId: string,
): Promise<CustomEventVocabulary> {
  const rows = await rowsOf(
    connection,
    `SELECT DISTINCT 'name' AS kind, event_name AS value
       FROM custom_events WHERE project_id = $project AND type = 'custom' AND event_name IS NOT NULL
     UNION
     SELECT DISTINCT 'key' AS kind, unnest(json_keys(props)) AS value
       FROM custom_events WHERE project_id = $project AND type IN ('custom', 'identify') AND props IS NOT NULL`,
    { project: projectId },
    VocabularyRowSchema,
  );
  return vocabularyOf(rows);
}
