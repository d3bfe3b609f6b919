import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { DuckDBInstance } from '@duckdb/node-api';

/**
 * A stored event as the tests read it: the row's columns in camelCase, with any JSON column (the event's
 * own fields, kept as a document) merged in, so assertions use the wire names of `@polyflow/contracts/events`
 * (`type`, `stage`, `hash`, `gasUsed`, …) whatever the store's column layout.
 */
export type StoredEvent = Record<string, unknown>;

const camel = (name: string) => name.replace(/_([a-z0-9])/g, (_, c: string) => c.toUpperCase());

function parseJson(value: unknown): unknown {
  if (typeof value !== 'string' || !/^[[{]/.test(value.trim())) return value;
  try {
    return JSON.parse(value);
  } catch {
    return value;
  }
}

function normalize(row: Record<string, unknown>): StoredEvent {
  const event: StoredEvent = {};
  const documents: Record<string, unknown>[] = [];
  for (const [column, raw] of Object.entries(row)) {
    const value = parseJson(raw);
    event[camel(column)] = value;
    if (
      value &&
      typeof value === 'object' &&
      !Array.isArray(value) &&
      /payload|data|event|body|doc/i.test(column)
    ) {
      documents.push(value as Record<string, unknown>);
    }
  }
  for (const document of documents) {
    for (const [key, value] of Object.entries(document)) event[key] ??= value;
  }
  return event;
}

/**
 * Every stored event of the project, read straight from `DATA_DIR/events.duckdb`, read-only. Call it only
 * after the server stopped: DuckDB lets one process hold the file.
 */
export async function readStoredEvents(dataDir: string, projectId: string): Promise<StoredEvent[]> {
  const file = join(dataDir, 'events.duckdb');
  if (!existsSync(file)) return [];
  const instance = await DuckDBInstance.create(file, { access_mode: 'READ_ONLY' });
  try {
    const connection = await instance.connect();
    try {
      const tables = (
        await connection.runAndReadAll(
          "SELECT table_name FROM information_schema.tables WHERE table_schema = 'main' AND table_name ILIKE '%event%'",
        )
      ).getRowObjectsJson();
      const rows: StoredEvent[] = [];
      for (const { table_name: table } of tables) {
        const reader = await connection.runAndReadAll(`SELECT * FROM "${String(table)}"`);
        for (const row of reader.getRowObjectsJson()) rows.push({ ...normalize(row), storedIn: table });
      }
      return rows.filter((event) => event.projectId === projectId);
    } finally {
      connection.closeSync();
    }
  } finally {
    instance.closeSync();
  }
}

/** The events of one type, optionally narrowed by a predicate. */
export function eventsOf(
  events: StoredEvent[],
  type: string,
  where: (e: StoredEvent) => boolean = () => true,
) {
  return events.filter((event) => event.type === type && where(event));
}
