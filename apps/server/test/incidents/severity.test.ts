import { describe, expect, it } from 'vitest';
import { countBySeverity, type SeverityInput, severityOf } from '../../src/modules/incidents/severity.ts';

const input = (overrides: Partial<SeverityInput> = {}): SeverityInput => ({
  affectedUsers: 1,
  failedTransactions: 0,
  reach: 0.001,
  ...overrides,
});

describe('severityOf (lifetime impact and reach among active users)', () => {
  it.each<[string, Partial<SeverityInput>, string]>([
    ['one person, nothing lost', {}, 'low'],
    ['two people on a tiny project (reach 100 %)', { affectedUsers: 2, reach: 1 }, 'low'],
    ['3 users, reach 1 %', { affectedUsers: 3, reach: 0.01 }, 'mid'],
    ['30 users but only 0.9 % of the active ones', { affectedUsers: 30, reach: 0.009 }, 'low'],
    ['9 users, reach 50 %', { affectedUsers: 9, reach: 0.5 }, 'mid'],
    ['10 users, reach 4.9 %', { affectedUsers: 10, reach: 0.049 }, 'mid'],
    ['10 users, reach 5 %', { affectedUsers: 10, reach: 0.05 }, 'high'],
    ['made one transaction fail, one user', { failedTransactions: 1 }, 'high'],
    ['failures, 9 users, reach 50 %', { failedTransactions: 4, affectedUsers: 9, reach: 0.5 }, 'high'],
    ['failures, 100 users, reach 1.9 %', { failedTransactions: 4, affectedUsers: 100, reach: 0.019 }, 'high'],
    ['failures, 10 users, reach 2 %', { failedTransactions: 1, affectedUsers: 10, reach: 0.02 }, 'severe'],
  ])('%s → %s', (_name, overrides, expected) => {
    expect(severityOf(input(overrides))).toBe(expected);
  });

  it('never lowers the severity when the impact grows', () => {
    const rank = { low: 0, mid: 1, high: 2, severe: 3 } as const;
    const users = [0, 1, 2, 3, 9, 10, 11, 99, 100];
    const reaches = [0, 0.009, 0.01, 0.019, 0.02, 0.049, 0.05, 0.5, 1];
    for (const affectedUsers of users) {
      for (const reach of reaches) {
        for (const failedTransactions of [0, 1]) {
          const here = rank[severityOf({ affectedUsers, reach, failedTransactions })];
          const more = [
            { affectedUsers: affectedUsers + 1, reach, failedTransactions },
            { affectedUsers, reach: Math.min(1, reach + 0.001), failedTransactions },
            { affectedUsers, reach, failedTransactions: failedTransactions + 1 },
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
