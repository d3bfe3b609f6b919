import type { IncidentImpact } from '@polyflow/contracts/incidents';
import { describe, expect, it } from 'vitest';
import { countBySeverity, severityOf } from '../../src/modules/incidents/severity.ts';

const impact = (overrides: Partial<IncidentImpact> = {}): IncidentImpact => ({
  occurrences: 1,
  affectedUsers: 1,
  affectedWallets: 0,
  activeDays: 1,
  failedTransactions: 0,
  ...overrides,
});

describe('severityOf', () => {
  it.each<[string, Partial<IncidentImpact>, string]>([
    ['one person, once', {}, 'low'],
    ['two people, nine times, one day', { affectedUsers: 2, occurrences: 9 }, 'low'],
    ['many wallets but one user, one day', { affectedWallets: 30, occurrences: 3 }, 'low'],
    ['3 users', { affectedUsers: 3, occurrences: 3 }, 'mid'],
    ['recurs on 2 days', { activeDays: 2, occurrences: 2 }, 'mid'],
    ['10 occurrences', { occurrences: 10 }, 'mid'],
    ['24 users', { affectedUsers: 24, occurrences: 24 }, 'mid'],
    ['25 users', { affectedUsers: 25, occurrences: 25 }, 'high'],
    ['made one transaction fail', { failedTransactions: 1 }, 'high'],
    ['failures, 9 users, 2 days', { failedTransactions: 4, affectedUsers: 9, activeDays: 2 }, 'high'],
    ['failures and 10 users', { failedTransactions: 1, affectedUsers: 10 }, 'severe'],
    ['failures recurring on 3 days', { failedTransactions: 1, activeDays: 3 }, 'severe'],
    ['99 users, no failures', { affectedUsers: 99, activeDays: 5 }, 'high'],
    ['100 users, no failures', { affectedUsers: 100 }, 'severe'],
  ])('%s → %s', (_name, overrides, expected) => {
    expect(severityOf(impact(overrides))).toBe(expected);
  });

  it('never lowers the severity when the impact grows', () => {
    const rank = { low: 0, mid: 1, high: 2, severe: 3 } as const;
    const steps = [0, 1, 2, 3, 9, 10, 24, 25, 99, 100];
    for (const users of steps) {
      for (const days of [1, 2, 3]) {
        for (const failed of [0, 1]) {
          const here =
            rank[severityOf(impact({ affectedUsers: users, activeDays: days, failedTransactions: failed }))];
          const more = [
            impact({ affectedUsers: users + 1, activeDays: days, failedTransactions: failed }),
            impact({ affectedUsers: users, activeDays: days + 1, failedTransactions: failed }),
            impact({ affectedUsers: users, activeDays: days, failedTransactions: failed + 1 }),
          ];
          for (const bigger of more) expect(rank[severityOf(bigger)]).toBeGreaterThanOrEqual(here);
        }
      }
    }
  });
});

describe('countBySeverity', () => {
  it('counts every level, zeros included', () => {
    expect(countBySeverity(['low', 'high', 'low'])).toEqual({ low: 2, mid: 0, high: 1, severe: 0 });
  });
});
