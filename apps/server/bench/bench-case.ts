import type { DuckDBConnection } from '@duckdb/node-api';
import type pg from 'pg';
import type { EventStore } from '../src/modules/event-store/event-store.ts';
import type { BucketedRange, TimeRange } from '../src/reading/time-range.ts';

/**
 * One dashboard query of `npm run bench:analytics`, on both engines. Every file in `bench/cases/` exports
 * `cases: BenchCase[]`; the bench loads them all. DuckDB runners should ask the production event store
 * (the port's questions, or a service over it); PostgreSQL runners the translations in bench/postgres/.
 */
export type BenchCase = {
  name: string;
  duckdb(context: DuckBenchContext): Promise<unknown>;
  postgres(context: PostgresBenchContext): Promise<unknown>;
};

export type BenchTarget = {
  projectId: string;
  /** The dashboard's default period: the last 30 days of the data. */
  range: TimeRange;
  /** The same period in daily buckets. */
  daily: BucketedRange;
  /** The whole 90 days, for "all time" style queries. */
  allTime: TimeRange;
  /** A transaction hash of the project (its latest), for single-record look-ups. */
  sampleTxHash: string;
};

export type DuckBenchContext = BenchTarget & {
  /** One connection of the benchmark's DuckDB instance. */
  connection: DuckDBConnection;
  /** The event store over the same instance (its reader connections), as the server's services use it. */
  store: EventStore;
};

export type PostgresBenchContext = BenchTarget & { pool: pg.Pool };
