/**
 * Top-N cards: the server is asked for every row (its limit's maximum), the card shows the first rows and
 * folds the rest into one "Other" row, and "Show all" lists every row. Shares are of the whole, so a
 * share reads the same in the card, in Show all and in the CSV.
 */

/** Rows a share chart shows before "Other". */
export const SHARES_SHOWN = 8;
/** Rows a table shows before "Other". */
export const TABLE_ROWS_SHOWN = 10;

export interface TopN<Row> {
  shown: Row[];
  /** The rows folded into "Other"; empty when every row is shown. */
  rest: Row[];
}

export function splitTop<Row>(rows: readonly Row[], count: number): TopN<Row> {
  return { shown: rows.slice(0, count), rest: rows.slice(count) };
}

export function sumOf<Row>(rows: readonly Row[], amountOf: (row: Row) => number): number {
  return rows.reduce((sum, row) => sum + amountOf(row), 0);
}

/** 0..1, or null when the whole is nothing. */
export const shareOf = (value: number, whole: number): number | null => (whole > 0 ? value / whole : null);

/** "Other (10 more)". */
export const otherLabel = (count: number): string => `Other (${count.toLocaleString('en-US')} more)`;
