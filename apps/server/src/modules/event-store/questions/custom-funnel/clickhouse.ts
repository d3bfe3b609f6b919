import type { AttributionDimension } from '@polyflow/contracts/acquisition';
import { z } from 'zod';
import type { TimeRange } from '../../../../reading/time-range.ts';
import type { ClickHouse } from '../../clickhouse/client.ts';
import { FROM, IDENTITY_KEYS_CTE, rangeParams } from '../../clickhouse/sql.ts';
import { count, flag, textOrNull } from '../../rows.ts';
import {
  type CustomFunnelDefinition,
  type CustomFunnelRow,
  MAX_SPLIT_VALUES,
  SPLIT_COLUMNS,
  stepConditions,
} from './question.ts';

/**
 * No step time: later than any (a missing step never falls within the window) and, doubled as `nextStep`
 * codes it, still within Int64.
 */
const NONE = 'toInt64(4000000000000000000)';

/** An event's time as a UInt64 that sorts as the Int64 does (the sign bit flipped). */
const TIME_BITS = 'bitXor(toUInt64(t), toUInt64(9223372036854775808))';

/**
 * The split's first start, "by time, then event id" (docs/funnels.md#the-split), as an `argMin` of the
 * landing value by a key compared as a number or with memcmp: a `min` over (time, id, value) tuples
 * compared each row field by field (ADR 112).
 * - `exact`: the time as 8 big-endian bytes (never a zero first byte, which `reinterpretAsString` would
 *   drop) followed by the id: bytes compare as (time, id).
 * - `hashed`: the time in the upper half of a UInt128 and a 64-bit hash of the value in the lower (its
 *   complement in `high`), no id read. Among the starts of the first millisecond `key` picks the value of
 *   smallest hash and `high` tells the largest: when the two differ, starts of different values tie and
 *   only the id decides: the question is asked again `exact`.
 */
const VALUE_HASH = "cityHash64(coalesce(value, ''))";
const START_KEYS = {
  exact: { key: `concat(reverse(reinterpretAsString(${TIME_BITS})), id)`, high: null },
  hashed: {
    key: `bitOr(bitShiftLeft(toUInt128(${TIME_BITS}), 64), toUInt128(${VALUE_HASH}))`,
    high: `bitOr(bitShiftLeft(toUInt128(${TIME_BITS}), 64), toUInt128(bitNot(${VALUE_HASH})))`,
  },
} as const;
const LOW_64 = "toUInt128('18446744073709551615')";

/**
 * Step k (k >= 3) of each attempt: the first step-k time strictly after the attempt's step k-1 (t<k-1>,
 * non-decreasing, so are the answers; NONE when there is none), in one numeric sort: each time coded as 2t
 * (an element of c<k>, the user's step-k times coded so by the scan, in any order) or 2t + 1 (a query), so
 * that at one millisecond the element sorts before the query ("after" is strict); `arrayReverseFill` gives
 * each query the next element.
 */
const nextStep = (k: number) => `arraySort(arrayConcat(arrayMap(x -> x * 2 + 1, t${k - 1}), c${k})) AS m${k},
             arrayMap(f -> if(f % 2 = 0, intDiv(f, 2), ${NONE}),
               arrayFilter((f, v) -> v % 2 = 1, arrayReverseFill(v -> v % 2 = 0, m${k}), m${k})) AS t${k}`;

/**
 * A custom funnel (docs/funnels.md#the-question) in one read of the events:
 * per SDK user (its 64-bit `user_key`, ADR 093), one array of its matched events' codes (time and steps;
 * for the split, its first start's key and landing value); per user (identify applied, looked up per SDK
 * user with `transform` over the identified users' keys: the app's user id keyed apart from every SDK id,
 * as on DuckDB, ADR 094; a join here was built on the SDK users' arrays and left the rest to one thread,
 * ADR 117) those gathered, each step's times taken out and merged into sorted arrays. Only some
 * attempts need following (ADR 103): an attempt whose step 2 is the time u has the same later steps as the
 * latest start before u, whose window is looser; so each step-2 time is paired with the latest start
 * before it (one merge of the two sorted arrays, `arrayFill`), and each later step is the first time
 * of the step after the step before (`nextStep`, one numeric sort). An attempt reaches step k when its k-th
 * time is within the window after step 1; every user with a start reaches step 1 and counts at their
 * best attempt; the Total and the split's rows in one grouping (ROLLUP). Not joins as on DuckDB:
 * ClickHouse evaluates a CTE at each reference. Not `windowFunnel`: it keeps one attempt per level and
 * can miss a longer chain when times tie (ADR 070). No FINAL: an event stored twice adds a time already
 * there, which changes no attempt (ADR 085).
 */
export async function customFunnel(
  clickhouse: ClickHouse,
  projectId: string,
  range: TimeRange,
  funnel: CustomFunnelDefinition,
  split: AttributionDimension | null,
): Promise<CustomFunnelRow[]> {
  const conditions = stepConditions(funnel.steps, {
    param: (name) => `{${name}:String}`,
    // `funnel_events`' path: dictionary-encoded, the empty text where absent (ADR 124).
    pathMatches: (regex) => `match(e.path, ${regex})`,
    // As the breakdown reads a property: a string as its text, a number or boolean as its JSON text.
    propertyEquals: (_pointer, key, value) => {
      const props = "coalesce(e.props, '{}')";
      return `if(JSONType(${props}, ${key}) = 'String', JSONExtractString(${props}, ${key}), JSONExtractRaw(${props}, ${key})) = ${value}`;
    },
  });
  const n = conditions.length;
  const steps = Array.from({ length: n }, (_, index) => index + 1);
  const later = steps.slice(1);
  // The landing value as stored (its dictionary code, hashed per distinct value); trimmed (blank: none)
  // once per user, on the first start's. Two stored values that trim alike tying at the first millisecond
  // only ask the question again exactly.
  const value = split ? `e.${SPLIT_COLUMNS[split]}` : "CAST(NULL, 'Nullable(String)')";
  const isStart = 's1 AND t < {to:Int64}';
  // One array per SDK user, each matched event one code: its time (t >= 0: ranges start in 1970) above
  // the 8 bits of the steps it is (bit 0: a start); one aggregate, where one per step cost two fifths more.
  // A step's flag is NULL only on an event of its type without the column it tests (a custom event without
  // a name), which then is no step at all and is not kept: no kept event's code is NULL.
  const code = `t * 256 + (toUInt8(${isStart})${later.map((k) => ` + s${k} * ${2 ** (k - 1)}`).join('')})`;
  /** Step k's times of a user's codes, coded 2t (+ 1 for starts) for the merges below, in any order. */
  const timesOf = (k: number) =>
    `arrayMap(x -> bitShiftRight(x, 8) * 2${k === 1 ? ' + 1' : ''}, arrayFilter(x -> bitTest(x, ${k - 1}), codes))`;
  // Per user the starts and step-2 times in one sorted array; the later steps' as they come (nextStep sorts).
  const times = [
    `arraySort(arrayConcat(${timesOf(1)}, ${timesOf(2)})) AS m2`,
    ...later.slice(1).map((k) => `${timesOf(k)} AS c${k}`),
  ].join(',\n             ');
  // Each step-2 time with the latest start strictly before it: the two sorted arrays merged in one numeric
  // sort, coded 2t + 1 (a start) or 2t (a step 2, so before a start of the same millisecond); arrayFill
  // gives each step-2 time the start before it (one before every start keeps its own code and is left out).
  // One CTE per later step, each reading the one before: an alias ClickHouse expands where it is used, so
  // steps written in one SELECT would repeat every earlier step's expressions in each later one.
  const rest = (k: number) =>
    steps
      .slice(k)
      .map((j) => `, c${j}`)
      .join('');
  const chain = later
    .slice(1)
    .map(
      (k) => `step${k} AS (
      SELECT who, landing, ambiguous, ${steps
        .slice(0, k - 1)
        .map((j) => `t${j}`)
        .join(', ')}${rest(k)},
             ${nextStep(k)}
        FROM step${k - 1}
    )`,
    )
    .join(',\n    ');
  const attempt = `(${steps.map((k) => `t${k}`).join(', ')}) -> 1 + ${later
    .map((k) => `toUInt8(t${k} <= t1 + {window:Int64})`)
    .join(' + ')}`;
  // The users per step as one array, `level` named once: ClickHouse names each expression by its whole text,
  // subqueries' columns expanded, so one `countIf(level >= k)` per step planned the chain above once more
  // each (ADR 124). Every user reaches step 1 (`level` is at least 1): their count orders the rows.
  const reached = `sumForEach(arrayMap(k -> toUInt64(level >= k), range(1, ${n + 1}))) AS reached, count() AS users`;
  const sqlOf = (keys: (typeof START_KEYS)[keyof typeof START_KEYS]) => `
    WITH ${IDENTITY_KEYS_CTE},
    (SELECT (groupArray(user_key), groupArray(app_key)) FROM identity_keys) AS app_keys,
    matched AS (
      SELECT e.user_key AS user_key, toInt64(toUnixTimestamp64Milli(e.ts)) AS t,${split ? `${keys.high ? '' : ' e.id AS id,'} ${value} AS value,` : ''}
             ${conditions.map((condition, index) => `${condition.sql} AS s${index + 1}`).join(',\n             ')}
        FROM funnel_events AS e
       WHERE e.project_id = {project:String} AND e.ts >= ${FROM}
         AND e.ts <= fromUnixTimestamp64Milli({to:Int64} + {window:Int64}, 'UTC')
         AND (${steps.map((k) => `s${k}`).join(' OR ')})
    ),
    per_sdk_user AS (
      SELECT user_key, groupArray(${code}) AS codes, max(${isStart}) AS started${
        split
          ? `,
             minIf(${keys.key}, ${isStart}) AS first_key,${keys.high ? `\n             minIf(${keys.high}, ${isStart}) AS first_high,` : ''}
             argMinIf(coalesce(value, ''), ${keys.key}, ${isStart}) AS start_value`
          : ''
      }
        FROM matched
       GROUP BY user_key
    ),
    per_user AS (
      SELECT who, first_value, ambiguous, ${times}
        FROM (
      SELECT transform(e.user_key, app_keys.1, app_keys.2, e.user_key) AS who, groupArrayArray(e.codes) AS codes,
             ${split ? 'argMinIf(e.start_value, e.first_key, e.started = 1)' : "''"} AS first_value,
             ${
               split && keys.high
                 ? `minIf(e.first_key, e.started = 1) AS low, minIf(e.first_high, e.started = 1) AS high,
             toUInt8(bitShiftRight(low, 64) = bitShiftRight(high, 64)
                     AND bitAnd(low, ${LOW_64}) != bitAnd(bitNot(high), ${LOW_64}))`
                 : 'toUInt8(0)'
             } AS ambiguous
        FROM per_sdk_user AS e
       GROUP BY who
      HAVING max(e.started) = 1)
    ),
    step2 AS (
      SELECT who, nullIf(trim(first_value), '') AS landing, ambiguous${rest(2)},
             arrayFill(v -> v % 2 = 1, m2) AS f2,
             arrayMap(f -> intDiv(f, 2), arrayFilter((f, v) -> v % 2 = 0 AND f % 2 = 1, f2, m2)) AS t1,
             arrayMap(v -> intDiv(v, 2), arrayFilter((v, f) -> v % 2 = 0 AND f % 2 = 1, m2, f2)) AS t2
        FROM per_user
    )${chain ? `,\n    ${chain}` : ''},
    levels AS (
      SELECT landing, ambiguous, greatest(1, arrayMax(arrayMap(${attempt}, ${steps.map((k) => `t${k}`).join(', ')}))) AS level
        FROM step${n}
    )
    SELECT ${split ? 'grouping(landing) = 1' : '1'} AS is_total,
           ${split ? 'if(grouping(landing) = 1, NULL, landing)' : "CAST(NULL, 'Nullable(String)')"} AS value, ${reached},
           max(ambiguous) AS ambiguous
      FROM levels ${split ? 'GROUP BY ROLLUP(landing)' : ''}
     ORDER BY is_total DESC, users DESC, value ASC NULLS LAST
     LIMIT ${MAX_SPLIT_VALUES + 1}`;
  const params = Object.assign(
    { ...rangeParams(projectId, range), window: funnel.windowMs },
    ...conditions.map((condition) => condition.params),
  );
  const ask = (keys: (typeof START_KEYS)[keyof typeof START_KEYS]) =>
    clickhouse.rows(sqlOf(keys), params, AnswerRow);
  // Split: by the hashed keys, asked again with the exact ones when starts of different values tie.
  let rows = await ask(split ? START_KEYS.hashed : START_KEYS.exact);
  if (split && rows.some((row) => row.ambiguous > 0)) rows = await ask(START_KEYS.exact);
  // No user at all: the Total's sums are an empty array, zeros.
  return rows.map((row) => ({
    isTotal: row.is_total,
    value: row.value,
    reached: steps.map((k) => row.reached[k - 1] ?? 0),
  }));
}

/**
 * A row of the answer: the users per step (`reached[k - 1]`: step k), and whether some user's first start
 * was decided by a hash among tied values.
 */
const AnswerRow = z.object({
  is_total: flag,
  value: textOrNull,
  reached: z.array(count),
  ambiguous: count,
});
