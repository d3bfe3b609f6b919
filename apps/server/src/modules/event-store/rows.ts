import { z } from 'zod';

/**
 * The parts of the questions' zod row schemas. Each question's `question.ts` declares its rows with these,
 * and both adapters parse what their engine answers with that one schema: DuckDB's plain JS values
 * (BIGINT as bigint, DOUBLE as number, BOOLEAN as boolean) and ClickHouse's JSONEachRow (64-bit integers
 * quoted, UInt8 flags) alike. Times travel as epoch milliseconds, big numbers as decimal text.
 */

/** A count or a time in ms (a bigint, a number, or quoted digits). */
export const count = z.coerce.number();
/** A nullable number (a code, a chain id). */
export const numberOrNull = z.union([z.null(), z.coerce.number()]);
/** A nullable text. */
export const textOrNull = z.string().nullable();
/** A nullable big number as decimal text (a wei amount, a block number), whatever the engine's type. */
export const decimalOrNull = z.union([z.null(), z.coerce.string()]);
/** A boolean, or a 0/1 flag. */
export const flag = z.union([z.boolean(), z.coerce.number().transform((value) => value === 1)]);
/** A text that is never null (an id). */
export const text = z.coerce.string();

/** A bucketed count or mean: bucket index and its value. */
export const BucketValueRow = z.object({ bucket: count, value: count });

/** bucket index → value, from rows shaped `{bucket, …}`. */
export function bucketMap<R extends { bucket: number }, T>(rows: readonly R[], value: (row: R) => T) {
  return new Map(rows.map((row) => [row.bucket, value(row)] as const));
}
