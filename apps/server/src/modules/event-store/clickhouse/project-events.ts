import { z } from 'zod';
import { EVENT_COLUMNS, type EventRow } from '../event-row.ts';
import type { ClickHouse } from './client.ts';
import { EVENTS, ms } from './sql.ts';

/** Times as epoch ms, big numbers as decimal text (JSON cannot carry them exactly). */
export const SELECT_LIST = EVENT_COLUMNS.map(({ name, kind }) => {
  if (kind === 'timestamp') return `${ms(name)} AS ${name}`;
  if (kind === 'hugeint') return `toString(${name}) AS ${name}`;
  return name;
}).join(', ');

const KIND_SCHEMAS = {
  varchar: z.string(),
  timestamp: z.coerce.number(),
  bigint: z.coerce.number(),
  hugeint: z.string().transform((value) => BigInt(value)),
} as const;

export const EventRowSchema = z.object(
  Object.fromEntries(
    EVENT_COLUMNS.map(({ name, kind, required }) => [
      name,
      required ? KIND_SCHEMAS[kind] : KIND_SCHEMAS[kind].nullable(),
    ]),
  ),
) as unknown as z.ZodType<EventRow>;

/** Every stored event of a project as rows, oldest received first (ties by id). */
export function readProjectEvents(clickhouse: ClickHouse, projectId: string): Promise<EventRow[]> {
  return clickhouse.rows(
    `SELECT ${SELECT_LIST} FROM ${EVENTS} WHERE project_id = {project:String} ORDER BY received_at, id`,
    { project: projectId },
    EventRowSchema,
  );
}
