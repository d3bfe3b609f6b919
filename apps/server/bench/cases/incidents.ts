import { createIncidentService } from '../../src/modules/incidents/service.ts';
import type { BenchCase, DuckBenchContext, PostgresBenchContext } from '../bench-case.ts';

/**
 * The Incident Tracking screens' queries over the dashboard's default 30 days, through the service (as the
 * resolvers call it). The PostgreSQL runners are translations of src/modules/event-store/questions/<question>/duckdb.ts kept here
 * (bench only; parameters: $1 project, $2 from, $3 to in epoch ms).
 * Generated rows carry their `incident_id` like stored ones (bench/analytics-data/generate-events.ts).
 */
const stubOwner = { getProjectFor: async () => ({}) as never };
const iso = (ms: number) => new Date(ms).toISOString();
/** No project of the bench has resolved or ignored incidents: the status read costs a lookup in SQLite. */
/** The bench only reads: nothing is recorded. */
const noAudit = { record: async () => {} };
const noStates = { statesOf: async () => new Map(), resolvedIn: async () => [], setState: async () => {} };
const noAssignments = {
  assigneesOf: async () => new Map(),
  memberEmail: async () => null,
  assign: async () => false,
};
const service = (c: DuckBenchContext) =>
  createIncidentService({
    projects: stubOwner,
    store: c.store,
    states: noStates,
    assignments: noAssignments,
    audit: noAudit,
  });
const rangeOf = (c: DuckBenchContext) => ({
  projectId: c.projectId,
  from: iso(c.range.fromMs),
  to: iso(c.range.toMs),
});

/** The target project's most frequent incident in the range: what the detail case opens. */
const detailIds = new Map<string, Promise<string>>();
function busiestIncident(c: DuckBenchContext): Promise<string> {
  const key = c.projectId;
  let id = detailIds.get(key);
  if (!id) {
    id = c.connection
      .runAndReadAll(
        `SELECT incident_id FROM events
          WHERE project_id = $project AND incident_id IS NOT NULL
            AND ts >= make_timestamp($from::BIGINT * 1000) AND ts < make_timestamp($to::BIGINT * 1000)
          GROUP BY incident_id ORDER BY count(*) DESC, incident_id LIMIT 1`,
        { project: c.projectId, from: BigInt(c.range.fromMs), to: BigInt(c.range.toMs) },
      )
      .then((reader) => String(reader.getRowObjectsJS()[0]?.incident_id ?? 'inc_000000000000000000000000'));
    detailIds.set(key, id);
  }
  return id;
}

const FROM = `(to_timestamp($2::bigint / 1000.0) AT TIME ZONE 'UTC')`;
const TO = `(to_timestamp($3::bigint / 1000.0) AT TIME ZONE 'UTC')`;
const args = (c: PostgresBenchContext) => [c.projectId, c.range.fromMs, c.range.toMs];

const pgSummaries = (c: PostgresBenchContext, search: string | null) =>
  c.pool.query(
    `WITH occurrences AS (
       SELECT incident_id, id, ts, user_id, session_id, wallet_address, error_source, error_message, error_code,
              rpc_method,
              ${search ? `(error_message ILIKE $4 OR error_stack ILIKE $4 OR wallet_address ILIKE $4 OR rpc_method ILIKE $4)` : 'true'} AS is_match
         FROM events
        WHERE project_id = $1 AND type = 'error' AND ts >= ${FROM} AND ts < ${TO} AND incident_id IS NOT NULL),
     tx_failures AS (
       SELECT o.incident_id, count(DISTINCT t.tx_id) AS failed
         FROM occurrences o JOIN events t
           ON t.project_id = $1 AND t.type = 'tx' AND t.tx_stage IN ('failed', 'reverted')
          AND t.session_id = o.session_id
          AND t.ts BETWEEN o.ts - interval '10 seconds' AND o.ts + interval '5 minutes'
        GROUP BY o.incident_id),
     earlier AS (
       SELECT incident_id, min(ts) AS first_ts FROM events
        WHERE project_id = $1 AND type = 'error' AND ts < ${FROM}
          AND incident_id IN (SELECT incident_id FROM occurrences)
        GROUP BY incident_id)
     SELECT o.incident_id, min(o.error_source), (array_agg(o.error_message ORDER BY o.ts DESC))[1],
            least(min(o.ts), min(e.first_ts)), max(o.ts), count(*), count(DISTINCT o.user_id),
            count(DISTINCT o.wallet_address), count(DISTINCT o.ts::date), coalesce(max(t.failed), 0),
            (array_agg(o.wallet_address ORDER BY o.ts DESC) FILTER (WHERE o.wallet_address IS NOT NULL))[1],
            (array_agg(o.id ORDER BY o.ts DESC, o.id DESC))[1], bool_or(o.is_match)
       FROM occurrences o LEFT JOIN tx_failures t USING (incident_id) LEFT JOIN earlier e USING (incident_id)
      GROUP BY o.incident_id`,
    search ? [...args(c), `%${search}%`] : args(c),
  );

export const cases: BenchCase[] = [
  {
    name: 'incidents list (+ fail rate, 2 connections)',
    duckdb: (c) => service(c).list('bench', rangeOf(c)),
    postgres: (c) => pgSummaries(c, null),
  },
  {
    name: 'incidents search "revert"',
    duckdb: (c) => service(c).list('bench', { ...rangeOf(c), search: 'revert' }),
    postgres: (c) => pgSummaries(c, 'revert'),
  },
  {
    name: 'incident detail (summary, event, trail)',
    duckdb: async (c) => {
      const id = await busiestIncident(c);
      // Null (a project without errors in the range) is a valid answer too; it still runs the summary.
      return service(c).detail('bench', { ...rangeOf(c), id });
    },
    postgres: async (c) => {
      // The summary of one incident, then the session trail of its latest occurrence (index on project, ts).
      const { rows } = await c.pool.query(
        `SELECT id, session_id, user_id, ts FROM events
          WHERE project_id = $1 AND type = 'error' AND ts >= ${FROM} AND ts < ${TO} AND incident_id IS NOT NULL
          ORDER BY ts DESC LIMIT 1`,
        args(c),
      );
      const latest = rows[0] as { session_id: string; user_id: string; ts: Date } | undefined;
      await pgSummaries(c, null);
      if (!latest) return null;
      return c.pool.query(
        `SELECT ts, type FROM events
          WHERE project_id = $1 AND session_id = $2 AND user_id = $3 AND ts <= $4 AND ts >= $4 - interval '1 day'
          ORDER BY ts DESC LIMIT 20`,
        [c.projectId, latest.session_id, latest.user_id, latest.ts],
      );
    },
  },
];
