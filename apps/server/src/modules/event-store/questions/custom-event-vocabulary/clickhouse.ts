import type { ClickHouse } from '../../clickhouse/client.ts';
import { type CustomEventVocabulary, VocabularyRowSchema, vocabularyOf } from './question.ts';

/** The project's distinct custom event names and property keys (docs/custom-events.md#limits). */
export async function customEventVocabulary(
  clickhouse: ClickHouse,
  projectId: string,
): Promise<CustomEventVocabulary> {
  const rows = await clickhouse.rows(
    `SELECT DISTINCT 'name' AS kind, assumeNotNull(event_name) AS value
       FROM custom_events WHERE project_id = {project:String} AND type = 'custom' AND event_name IS NOT NULL
     UNION DISTINCT
     SELECT DISTINCT 'key' AS kind, arrayJoin(JSONExtractKeys(assumeNotNull(props))) AS value
       FROM custom_events WHERE project_id = {project:String} AND type IN ('custom', 'identify') AND props IS NOT NULL`,
    { project: projectId },
    VocabularyRowSchema,
  );
  return vocabularyOf(rows);
}
