/**
 * One question (a load, a delete, a set of answers) put to ClickHouse and DuckDB at once, their results in
 * that order: chdb works in its own process while DuckDB works in this one, so a comparison waits for the
 * slower engine rather than for both in turn. The two stores share nothing, so neither's answer depends on
 * the other's being asked; each result is then checked exactly as when they were asked one after the other.
 */
export function askBoth<Store, T>(
  clickhouse: Store,
  duckdb: Store,
  ask: (store: Store) => Promise<T>,
): Promise<[T, T]> {
  return Promise.all([ask(clickhouse), ask(duckdb)]);
}
