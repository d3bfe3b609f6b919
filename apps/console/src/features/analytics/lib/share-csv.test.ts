import { describe, expect, it } from 'vitest';
import { topPagesCsv, topReferrersCsv } from './share-csv';

describe('top pages and referrers CSV', () => {
  it('gives each row its share of the users of every row, beside its users', () => {
    const pages = topPagesCsv([
      { path: '/swap', users: 30, wallets: 5, transactions: 2 },
      { path: '/pool', users: 10, wallets: 1, transactions: 0 },
    ]);
    expect(pages.header).toEqual(['path', 'users', 'share', 'wallets_connected', 'transactions_started']);
    expect(pages.rows).toEqual([
      ['/swap', 30, 0.75, 5, 2],
      ['/pool', 10, 0.25, 1, 0],
    ]);
    const referrers = topReferrersCsv([
      { domain: null, users: 1, wallets: 0, transactions: 0 },
      { domain: 'x.com', users: 0, wallets: 0, transactions: 0 },
    ]);
    expect(referrers.rows).toEqual([
      ['Direct (no referrer)', 1, 1, 0, 0],
      ['x.com', 0, 0, 0, 0],
    ]);
    expect(
      topReferrersCsv([{ domain: 'x.com', users: 0, wallets: 0, transactions: 0 }]).rows[0]?.[2],
    ).toBeNull();
  });
});
