import { createCustomEventsService } from '../../src/modules/custom-events/service.ts';
import type { BenchCase, DuckBenchContext } from '../bench-case.ts';

/**
 * The Events screen's questions (docs/custom-events.md) through the service, over the dashboard's default 30
 * days: the list and its previous period, one name's breakdown by a property, one name per Berlin day, and
 * ingestion's names and keys read for the limits. Meaningful with `--custom-events` (otherwise they answer
 * over no custom event). No PostgreSQL translation: that column reads "error".
 */
const stubOwner = { getProjectFor: async () => ({}) as never };
const iso = (ms: number) => new Date(ms).toISOString();
const service = (c: DuckBenchContext) => createCustomEventsService({ projects: stubOwner, store: c.store });
const rangeOf = (c: DuckBenchContext) => ({ from: iso(c.range.fromMs), to: iso(c.range.toMs) });
const noPostgres = async () => {
  throw new Error('no PostgreSQL translation');
};

export const cases: BenchCase[] = [
  {
    name: 'custom events (with previous)',
    duckdb: (c) =>
      Promise.all([
        service(c).counts('bench', c.projectId, rangeOf(c)),
        service(c).counts('bench', c.projectId, { ...rangeOf(c), previous: true }),
      ]),
    postgres: noPostgres,
  },
  {
    name: 'custom event breakdown (pair)',
    duckdb: (c) =>
      service(c).breakdown('bench', c.projectId, {
        ...rangeOf(c),
        name: 'swap_quote_shown',
        key: 'pair',
        limit: 20,
      }),
    postgres: noPostgres,
  },
  {
    name: 'custom event series (Europe/Berlin days)',
    duckdb: (c) =>
      service(c).series('bench', c.projectId, {
        ...rangeOf(c),
        name: 'swap_quote_shown',
        timeZone: 'Europe/Berlin',
      }),
    postgres: noPostgres,
  },
  {
    name: 'custom event names and keys (ingestion limits)',
    duckdb: (c) => c.store.customEventVocabulary(c.projectId),
    postgres: noPostgres,
  },
];
