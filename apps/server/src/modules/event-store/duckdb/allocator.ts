/**
 * How long DuckDB's allocator keeps the memory a question frees (ADR 163). DuckDB allocates through its own
 * jemalloc (built with the `duckdb_je_` prefix), which by DuckDB's settings hands freed pages back to the system
 * as soon as the query threads go idle, after every question: the next question faults the same pages in again
 * and zeroes them (each hash aggregate's first table alone is 2 MB per thread on two cores, ADR 156). Kept for
 * ten seconds instead, a dashboard's burst of questions reuses them, and older ones go back at DuckDB's next
 * work (jemalloc purges only when called: an idle process keeps the last pages until its next question).
 *
 * jemalloc reads `DUCKDB_JE_MALLOC_CONF` once, when the DuckDB binding is loaded; set later, it changes nothing.
 * So it is set before: by `src/main.ts` (the built server evaluates its npm imports before its own code), by
 * `binding.ts` (every value import of `@duckdb/node-api` in the server's sources and benches goes through it:
 * in order under tsx) and by the vitest config (its workers inherit it). An operator's own
 * `DUCKDB_JE_MALLOC_CONF` wins; an empty one leaves DuckDB's defaults. The admin command line's bundle
 * (backups, copies, no dashboard questions) loads DuckDB with its defaults.
 */
const DUCKDB_ALLOCATOR_CONF = 'dirty_decay_ms:10000,muzzy_decay_ms:10000';

process.env.DUCKDB_JE_MALLOC_CONF ??= DUCKDB_ALLOCATOR_CONF;
