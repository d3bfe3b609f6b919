/**
 * What a derived table's fill from the stored events (the INSERT … SELECT a schema migration runs over every
 * event, wallet-day or transaction-day of the store) may hold in memory before its GROUP BY, DISTINCT or sort
 * spills to disk: past 1 GB it spills, so that filling a large store stays within the server's memory.
 */
export const COPY_SPILL_BYTES = 1_000_000_000;
