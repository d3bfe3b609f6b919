/**
 * A derived table of the DuckDB adapter (docs/decisions/005-derived-tables.md), one file each: its rows as
 * a SELECT over `{source}` (one row per key), what the upserts of a load do with a key already stored (one
 * statement each), the order compaction rewrites it in, and the DERIVED_TABLES_VERSION that gave it its
 * present definition (a file of an older version rebuilds it). Tables defined before version 4 say 4: a
 * file older than that rebuilds all of them, as it always did. Its DDL is in schema.ts.
 */
export type DerivedTable = {
  name: string;
  definedIn: number;
  order: string;
  rows: string;
  onConflict: readonly string[];
  /** Inserts the rows of new keys first (ON CONFLICT DO NOTHING reads no stored row), then merges. */
  newRowsFirst?: boolean;
  /**
   * Rebuilt from `events` in ranges of this key (an events column, UBIGINT, that all the events of one
   * of the table's rows share), each range's rows aggregated into a staging table, then written
   * sorted in one statement: for list aggregates, which DuckDB holds in memory and does not spill
   * (docs/decisions/113-chunked-rebuild.md).
   */
  rebuildChunkKey?: string;
};
