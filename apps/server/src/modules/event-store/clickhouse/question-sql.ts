/**
 * SQL pieces the acquisition and incident questions share, beside sql.ts. Times are epoch
 * milliseconds in parameters and DateTime64(3, 'UTC') in the table, so every conversion names UTC: a
 * server's own time zone never moves a day or a range edge.
 */

/** A parameter of epoch ms as a UTC time. */
export const timeParam = (name: string) => `fromUnixTimestamp64Milli({${name}:Int64}, 'UTC')`;
/** The UTC day of a time. */
export const utcDay = (expression: string) => `toDate(${expression}, 'UTC')`;
