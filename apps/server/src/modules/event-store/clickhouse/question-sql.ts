import { z } from 'zod';
import type { TimeRange } from '../../../reading/time-range.ts';

/**
 * SQL pieces the acquisition and incident questions share on ClickHouse. Values always travel as typed
 * query parameters (`{project:String}`, `{from:Int64}`, …); only these constant fragments are spliced
 * into the text. Times are epoch milliseconds in parameters and DateTime64(3, 'UTC') in the table, so
 * every conversion names UTC: a server's own time zone never moves a day or a range edge.
 */

/** The stored events, each (project_id, id) once. */
export const EVENTS = 'events FINAL';

/** A parameter of epoch ms as a UTC time. */
export const timeParam = (name: string) => `fromUnixTimestamp64Milli({${name}:Int64}, 'UTC')`;
export const FROM = timeParam('from');
export const TO = timeParam('to');
/** The project's events with `ts` in [from, to). */
export const IN_RANGE = `project_id = {project:String} AND ts >= ${FROM} AND ts < ${TO}`;
/** A time as epoch ms (Int64). */
export const ms = (expression: string) => `toUnixTimestamp64Milli(${expression})`;
/** The UTC day of a time. */
export const utcDay = (expression: string) => `toDate(${expression}, 'UTC')`;

/** The stages that make a transaction submitted (docs/analytics.md; duckdb/sql.ts SUBMITTED_STAGES). */
export const SUBMITTED_STAGES = `('submitted', 'confirmed', 'reverted', 'replaced', 'dropped')`;

export type Params = Record<string, string | number | bigint | boolean | null | readonly string[]>;

/** What a question needs of the adapter's connection: one query's JSONEachRow rows, each parsed. */
export type ClickHouseReader = {
  rows<T>(sql: string, params: Params, schema: z.ZodType<T>): Promise<T[]>;
};

export const rangeParams = (projectId: string, range: TimeRange): Params => ({
  project: projectId,
  from: range.fromMs,
  to: range.toMs,
});

/** A count or a time in ms (64-bit integers arrive quoted in JSON). */
export const count = z.coerce.number();
/** A nullable count or code. */
export const numberOrNull = z.union([z.null(), z.coerce.number()]);
export const textOrNull = z.string().nullable();
/** A 0/1 flag. */
export const flag = z.coerce.number().transform((value) => value === 1);
