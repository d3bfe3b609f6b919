// The DuckDB binding, loaded after the allocator's settings are in the environment (allocator.ts, ADR 163).
// Import DuckDB's values from here; its types may come from `@duckdb/node-api` directly.
import './allocator.ts';

export { DuckDBInstance, listValue } from '@duckdb/node-api';
