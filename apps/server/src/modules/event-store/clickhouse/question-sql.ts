import { z } from 'zod';

/**
 * SQL pieces and row parts the acquisition and incident questions share, beside sql.ts. Times are epoch
 * milliseconds in parameters and DateTime64(3, 'UTC') in the table, so every conversion names UTC: a
 * server's own time zone never moves a day or a range edge.
 */

/** A parameter of epoch ms as a UTC time. */
export const timeParam = (name: string) => `fromUnixTimestamp64Milli({${name}:Int64}, 'UTC')`;
/** The UTC day of a time. */
export const utcDay = (expression: string) => `toDate(${expression}, 'UTC')`;

/** A count or a time in ms (64-bit integers arrive quoted in JSON). */
export const count = z.coerce.number();
/** A nullable number (a code, a chain id). */
export const numberOrNull = z.union([z.null(), z.coerce.number()]);
export const textOrNull = z.string().nullable();
/** A 0/1 flag. */
export const flag = z.coerce.number().transform((value) => value === 1);
