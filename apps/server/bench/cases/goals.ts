import { pathPatternRegex } from '@polyflow/contracts/path-pattern';
import type { GoalMatch } from '../../src/modules/event-store/goal-questions.ts';
import type { BenchCase } from '../bench-case.ts';

/**
 * The goals' questions (docs/goals.md) over the dashboard's default 30 days: ten goals (five custom event
 * names, one with a property's value, four page path patterns) in one query, with its previous period as the
 * Goals card asks; and one goal's attribution column by campaign. Meaningful with `--custom-events`
 * (otherwise the event goals match nothing). No PostgreSQL translation: that column reads "error".
 */
const event = (eventName: string, propertyKey: string | null = null, propertyValue: string | null = null) =>
  ({ kind: 'event', eventName, propertyKey, propertyValue }) as const;
const path = (pattern: string): GoalMatch => ({ kind: 'path', pathRegex: pathPatternRegex(pattern) });

const GOALS: GoalMatch[] = [
  event('swap_quote_shown'),
  event('bridge_started'),
  event('limit_order_set'),
  event('pool_viewed'),
  event('settings_opened'),
  event('swap_quote_shown', 'pair', 'ETH/USDC'),
  path('/swap'),
  path('/pool/**'),
  path('/*'),
  path('/stake/*/confirm'),
];
const noPostgres = async () => {
  throw new Error('no PostgreSQL translation');
};

export const cases: BenchCase[] = [
  {
    name: 'goal conversions, 10 goals (with previous)',
    duckdb: (c) => {
      const length = c.range.toMs - c.range.fromMs;
      const previous = { fromMs: c.range.fromMs - length, toMs: c.range.fromMs };
      return Promise.all([
        c.store.goalConversions(c.projectId, c.range, GOALS),
        c.store.goalConversions(c.projectId, previous, GOALS),
      ]);
    },
    postgres: noPostgres,
  },
  {
    name: 'goal attribution (campaign)',
    duckdb: (c) => c.store.goalAttribution(c.projectId, c.range, 'campaign', GOALS[0] as GoalMatch, {}),
    postgres: noPostgres,
  },
];
