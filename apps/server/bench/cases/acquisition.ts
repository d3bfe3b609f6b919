import type { AcquisitionFilters } from '@polyflow/contracts/acquisition';
import { createAcquisitionService } from '../../src/modules/acquisition/service.ts';
import { SUBMITTED_STAGES, sqlList } from '../../src/modules/event-store/domain.ts';
import type { BenchCase, DuckBenchContext, PostgresBenchContext } from '../bench-case.ts';

/**
 * The User Acquisition screen's queries over the dashboard's default 30 days, through the service (as the
 * resolvers call it). The PostgreSQL runners are translations of src/modules/event-store/questions/<question>/duckdb.ts kept
 * here (bench only; PostgreSQL parameters: $1 project, $2 from, $3 to in epoch ms).
 */
const stubOwner = { getProjectFor: async () => ({}) as never };
const FILTERS: AcquisitionFilters = {
  countries: ['US', 'DE'],
  sources: ['twitter'],
  walletProviders: ['MetaMask'],
};

const iso = (ms: number) => new Date(ms).toISOString();
const service = (c: DuckBenchContext) => createAcquisitionService({ projects: stubOwner, store: c.store });
const rangeOf = (c: DuckBenchContext) => ({
  projectId: c.projectId,
  from: iso(c.range.fromMs),
  to: iso(c.range.toMs),
});

const FROM = `(to_timestamp($2::bigint / 1000.0) AT TIME ZONE 'UTC')`;
const TO = `(to_timestamp($3::bigint / 1000.0) AT TIME ZONE 'UTC')`;
const IN_RANGE = `project_id = $1 AND ts >= ${FROM} AND ts < ${TO}`;
const SUBMITTED = sqlList(SUBMITTED_STAGES);
const args = (c: PostgresBenchContext) => [c.projectId, c.range.fromMs, c.range.toMs];

/** Sessions passing FILTERS ($4 countries, $5 sources, $6 providers). */
const PG_MATCHING = `session_id IN (
  SELECT session_id FROM events WHERE ${IN_RANGE} GROUP BY session_id
  HAVING bool_or(country = ANY($4)) AND bool_or(utm_source = ANY($5)) AND bool_or(wallet_provider = ANY($6)))`;
const pgFilterArgs = (c: PostgresBenchContext) => [
  ...args(c),
  FILTERS.countries,
  FILTERS.sources,
  FILTERS.walletProviders,
];

const pgFunnel = (c: PostgresBenchContext, filtered: boolean) =>
  c.pool.query(
    `WITH per_user AS (
       SELECT user_id,
              bool_or(type IN ('wallet_detected', 'wallet_connected') OR wallet_provider IS NOT NULL) AS has_wallet,
              bool_or(type = 'wallet_connected') AS has_connected,
              count(DISTINCT tx_id) FILTER (WHERE type = 'tx' AND tx_stage IN ${SUBMITTED}) AS transactions,
              bool_or(type = 'signature' AND sig_stage = 'signed') AS has_signed
         FROM events WHERE ${IN_RANGE} ${filtered ? `AND ${PG_MATCHING}` : ''}
        GROUP BY user_id)
     SELECT count(*), count(*) FILTER (WHERE has_wallet), count(*) FILTER (WHERE has_connected),
            count(*) FILTER (WHERE transactions >= 1), count(*) FILTER (WHERE transactions >= 2),
            count(*) FILTER (WHERE has_signed)
       FROM per_user`,
    filtered ? pgFilterArgs(c) : args(c),
  );

const pgAttribution = (c: PostgresBenchContext, column: string, filtered: boolean) =>
  c.pool.query(
    `WITH sessions AS (
       SELECT session_id, min(user_id) AS user_id, min(NULLIF(trim(${column}), '')) AS value,
              count(*) FILTER (WHERE type = 'wallet_connected') AS connects,
              count(DISTINCT tx_id) FILTER (WHERE type = 'tx' AND tx_stage IN ${SUBMITTED}) AS transactions
         FROM events WHERE ${IN_RANGE} ${filtered ? `AND ${PG_MATCHING}` : ''}
        GROUP BY session_id),
     earlier AS (
       SELECT DISTINCT wallet_address FROM events
        WHERE project_id = $1 AND type = 'wallet_connected' AND ts < ${FROM} AND wallet_address IS NOT NULL),
     first_connections AS (
       SELECT DISTINCT ON (wallet_address) wallet_address, session_id FROM events
        WHERE ${IN_RANGE} AND type = 'wallet_connected' AND wallet_address IS NOT NULL
          AND wallet_address NOT IN (SELECT wallet_address FROM earlier)
        ORDER BY wallet_address, ts),
     new_wallets AS (SELECT session_id, count(*) AS wallets FROM first_connections GROUP BY session_id)
     SELECT GROUPING(value) = 1 AS is_total, value, coalesce(sum(wallets), 0), sum(connects), sum(transactions),
            count(*), count(DISTINCT user_id),
            count(*) FILTER (WHERE transactions > 0), count(DISTINCT user_id) FILTER (WHERE transactions > 0),
            count(*) FILTER (WHERE connects > 0), count(DISTINCT user_id) FILTER (WHERE connects > 0)
       FROM sessions LEFT JOIN new_wallets USING (session_id)
      GROUP BY GROUPING SETS ((value), ())`,
    filtered ? pgFilterArgs(c) : args(c),
  );

const OPTION_COLUMNS = [
  'country',
  'utm_term',
  'utm_source',
  'utm_medium',
  'utm_campaign',
  'utm_content',
  'browser',
  'wallet_provider',
];

export const cases: BenchCase[] = [
  {
    name: 'acquisitionFunnel',
    duckdb: (c) => service(c).funnel('bench', rangeOf(c)),
    postgres: (c) => pgFunnel(c, false),
  },
  {
    name: 'acquisitionFunnel, 3 filters',
    duckdb: (c) => service(c).funnel('bench', { ...rangeOf(c), filters: FILTERS }),
    postgres: (c) => pgFunnel(c, true),
  },
  {
    name: 'attribution by campaign',
    duckdb: (c) => service(c).attribution('bench', { ...rangeOf(c), dimension: 'campaign' }),
    postgres: (c) => pgAttribution(c, 'utm_campaign', false),
  },
  {
    name: 'attribution by source, 3 filters',
    duckdb: (c) => service(c).attribution('bench', { ...rangeOf(c), dimension: 'source', filters: FILTERS }),
    postgres: (c) => pgAttribution(c, 'utm_source', true),
  },
  {
    name: 'acquisitionFilterOptions',
    duckdb: (c) => service(c).filterOptions('bench', rangeOf(c)),
    postgres: (c) =>
      c.pool.query(
        `SELECT name, value, count(DISTINCT user_id) AS users
           FROM events
          CROSS JOIN LATERAL (VALUES ${OPTION_COLUMNS.map((column) => `('${column}', ${column})`).join(', ')}) AS v(name, value)
          WHERE ${IN_RANGE} AND value IS NOT NULL AND trim(value) <> ''
          GROUP BY name, value`,
        args(c),
      ),
  },
];
