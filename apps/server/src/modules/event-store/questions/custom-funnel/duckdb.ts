import type { AttributionDimension } from '@polyflow/contracts/acquisition';
import type { FunnelStep } from '@polyflow/contracts/funnels';
import type { TimeRange } from '../../../../reading/time-range.ts';
import { keyOf } from '../../duckdb/schema.ts';
import { type Connection, FROM, IDENTITIES_CTE, type Params, rangeParams, rowsOf } from '../../duckdb/sql.ts';
import {
  type CustomFunnelDefinition,
  type CustomFunnelRow,
  customFunnelRowSchema,
  MAX_SPLIT_VALUES,
  SPLIT_COLUMNS,
  stepConditions,
} from './question.ts';

/**
 * A custom funnel (docs/funnels.md#the-question) without a window pass (ADR 085). Every user with a step-1
 * event in the range reaches step 1. For later steps only some attempts need following: an attempt whose
 * step 2 is the event u has the same steps 2, 3, … as the latest start before u, which has a later step 1
 * (so a looser window). So each step-2 event is paired with the latest start before it within the window
 * (an equality join on the user, bounded by the window), and each later step is the first step-k time
 * after step k-1 within the window after step 1 (a join bounded the same way; nothing within it ends the
 * attempt). A pair whose u is not the first step 2 after its start follows an attempt no better than the
 * real one, which is paired too. A user counts at their best attempt; the split value is the landing UTM
 * of the user's first step-1 event (time, then id). Not ASOF joins: DuckDB's `ASOF LEFT JOIN … c.t < e.t`
 * matched users without any such event on the bench store (ADR 070).
 */
/** The event type each step kind matches (a fixed map, never caller text). */
const STEP_TYPES: Record<FunnelStep['kind'], string> = {
  page: 'page_view',
  event: 'custom',
  wallet_connected: 'wallet_connected',
  transaction: 'tx',
};

/**
 * The user an event counts for (docs/custom-events.md#users-identify), as the funnel's joins compare it: a
 * 64-bit key (ADR 093), the events' stored `user_key` of the SDK user, or when identified the key of the
 * app's user id after a control character (no SDK user id holds one, so the two never share a text). Two
 * users of a range whose keys coincide would count as one, with the bound docs/funnels.md states (ADR 094).
 */
const WHO = 'coalesce(identities.app_key, e.user_key)';

export function customFunnel(
  connection: Connection,
  projectId: string,
  range: TimeRange,
  funnel: CustomFunnelDefinition,
  split: AttributionDimension | null,
): Promise<CustomFunnelRow[]> {
  const conditions = stepConditions(funnel.steps, {
    param: (name) => `$${name}`,
    // The expression is anchored, so a full match is the same test; DuckDB answers regexp_full_match
    // several times faster than regexp_matches here (ADR 094).
    pathMatches: (regex) => `regexp_full_match(coalesce(path, ''), ${regex})`,
    propertyEquals: (pointer, _key, value) => `json_extract_string(props, ${pointer}) = ${value}`,
  });
  const n = conditions.length;
  const steps = Array.from({ length: n }, (_, index) => index + 1);
  // The split's landing value as stored; trimmed (blank: none) only once per user, on the first start's.
  const value = split ? `e.${SPLIT_COLUMNS[split]}` : 'NULL::VARCHAR';
  const within = '$window::BIGINT';
  // Every pair the joins look for lies within one window: its two times fall in the same period of the
  // window's length (counted from the epoch, \`b\`) or in two consecutive ones. Joining on the period as
  // well as the user (each row asked for two periods) keeps each probe to the user's events of those two
  // periods instead of all their events of the range (ADR 094).
  const TWO_PERIODS = '(VALUES (0), (1)) AS d(o)';
  // Step k (k >= 3) of each candidate attempt: the first step-k time after step k-1's, kept only within
  // the window after step 1 (a later one ends the attempt there, as would any after it).
  const chain = steps
    .slice(2)
    .map(
      (k) => `c${k} AS (
      SELECT c.who, c.t1, c.t2${steps
        .slice(2, k - 1)
        .map((j) => `, c.t${j}`)
        .join('')}, min(m.t) AS t${k}
        FROM (SELECT *, t1 // ${within} + o AS b FROM c${k - 1}, ${TWO_PERIODS}) AS c
        LEFT JOIN matched AS m
          ON m.who = c.who AND m.b = c.b AND m.s${k} AND m.t > c.t${k - 1} AND m.t <= c.t1 + ${within}
       GROUP BY ALL
    )`,
    )
    .join(',\n    ');
  const level = steps
    .slice(2)
    .map((k) => `(t${k} IS NOT NULL)::INTEGER`)
    .join(' + ');
  const reached = steps.map((k) => `count(*) FILTER (WHERE level >= ${k})::DOUBLE AS r${k}`).join(', ');
  const sql = `
    WITH ${IDENTITIES_CTE},
    matched AS (
      SELECT ${WHO} AS who, epoch_ms(e.ts) AS t, epoch_ms(e.ts) // ${within} AS b,${split ? ` e.id AS id, ${value} AS value,` : ''}
             ${conditions.map((condition, index) => `${condition.sql} AS s${index + 1}`).join(',\n             ')}
        FROM events AS e LEFT JOIN (SELECT ${keyOf('user_id')} AS user_key, ${keyOf('chr(1) || app_id')} AS app_key FROM identities) AS identities
          ON identities.user_key = e.user_key
       WHERE project_id = $project AND ts >= ${FROM}
         AND ts <= make_timestamp(($to::BIGINT + $window::BIGINT) * 1000)
         AND type IN (${[...new Set(funnel.steps.map((step) => STEP_TYPES[step.kind]))].map((type) => `'${type}'`).join(', ')})
    ),
    starts AS (SELECT who, t, b${split ? ', id, value' : ''} FROM matched WHERE s1 AND t < $to),
    c2 AS (
      SELECT u.who, max(s.t) AS t1, u.t AS t2
        FROM (SELECT who, t, b - o AS b FROM matched, ${TWO_PERIODS} WHERE s2) AS u
        JOIN starts AS s ON s.who = u.who AND s.b = u.b AND s.t < u.t AND u.t <= s.t + ${within}
       GROUP BY u.who, u.t
    )${chain ? `,\n    ${chain}` : ''},
    levels AS (
      SELECT who, max(2${level ? ` + ${level}` : ''}) AS level FROM c${n} GROUP BY who
    ),
    first_starts AS (
      SELECT who, ${split ? "NULLIF(trim(arg_min(coalesce(value, ''), (t, id))), '')" : 'NULL::VARCHAR'} AS value
        FROM starts GROUP BY who
    ),
    per_user AS (
      SELECT f.who, coalesce(l.level, 1) AS level, f.value
        FROM first_starts AS f LEFT JOIN levels AS l ON l.who = f.who
    ),
    totals AS (SELECT true AS is_total, NULL::VARCHAR AS value, ${reached} FROM per_user),
    split AS (
      SELECT false AS is_total, value, ${reached} FROM per_user WHERE $split GROUP BY value
       ORDER BY r1 DESC, value NULLS LAST LIMIT ${MAX_SPLIT_VALUES}
    )
    SELECT * FROM totals UNION ALL SELECT * FROM split`;
  const params: Params = {
    ...rangeParams(projectId, range),
    window: BigInt(funnel.windowMs),
    split: split !== null,
    ...Object.assign({}, ...conditions.map((condition) => condition.params)),
  };
  // DuckDB refuses a parameter the text does not use (a property's key: its JSON pointer is used instead).
  const used: Params = Object.fromEntries(
    Object.entries(params).filter(([name]) => new RegExp(`\\$${name}\\b`).test(sql)),
  );
  return rowsOf(connection, sql, used, customFunnelRowSchema(n));
}
