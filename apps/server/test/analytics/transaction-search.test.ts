import { beforeAll, describe, expect, it } from 'vitest';
import { createAnalyticsService } from '../../src/modules/analytics/service.ts';
import { parseCsv } from '../event-export/support.ts';
import { apiClient, errorOf as restErrorOf } from '../support/client.ts';
import { storeRows } from '../support/event-stores.ts';
import { seed } from '../support/seed.ts';
import { C1, hashOf, txRows, W1, W2 } from './events-fixture.ts';
import { dataOf, errorOf } from './graphql-client.ts';
import { useAnalyticsWorld } from './setup.ts';

/**
 * The history's search and filters (docs/analytics.md#searching-and-filtering-the-history) on the hand-built
 * timeline: all time, the main project lists tx-6, tx-5, tx-3, tx-4, tx-2, tx-1, tx-0 (newest first).
 */
const world = useAnalyticsWorld();

const HISTORY = `query H($projectId: ID!, $from: DateTime, $to: DateTime, $first: Int, $after: String,
    $search: String, $status: String, $type: String, $contract: String, $selector: String) {
  transactionHistory(projectId: $projectId, from: $from, to: $to, first: $first, after: $after, search: $search,
      status: $status, type: $type, contract: $contract, selector: $selector) {
    rows { id status }
    nextCursor
    total
  }
}`;

type Page = { rows: { id: string; status: string }[]; nextCursor: string | null; total: number };
const history = async (variables: Record<string, unknown>) =>
  dataOf(await world.gql(HISTORY, { projectId: world.main, ...variables })).transactionHistory as Page;
const ids = (page: Page) => page.rows.map((row) => row.id);

describe('transactionHistory search', () => {
  it.each([
    ['a wallet prefix of 6 digits', { search: '0x222222' }, ['tx-3', 'tx-2']],
    ['a wallet prefix without 0x', { search: '111111' }, ['tx-1', 'tx-0']],
    ['a whole wallet', { search: W2 }, ['tx-3', 'tx-2']],
    ['a hash prefix', { search: '0x030303' }, ['tx-3']],
    ['a whole hash, upper case', { search: hashOf(5).toUpperCase() }, ['tx-5']],
    ['a prefix nothing starts with', { search: '0xabcdef' }, []],
  ])('%s', async (_name, filter, expected) => {
    const page = await history(filter);
    expect(ids(page)).toEqual(expected);
    expect(page.total).toBe(expected.length);
  });

  it('matches mixed case among transactions of the same millisecond', async () => {
    const page = await history({ projectId: world.sameInstant, search: '0XA1a1A1' });
    expect(ids(page)).toEqual(['tx-b']);
    expect(page.total).toBe(1);
  });

  it.each([
    ['five hex digits', '0x01010'],
    ['a non-hex text', 'swap-token'],
    ['more than 64 digits', `0x${'1'.repeat(65)}`],
  ])('refuses %s with BAD_USER_INPUT', async (_name, search) => {
    const answer = await world.gql(HISTORY, { projectId: world.main, search });
    expect(errorOf(answer)).toEqual({ code: 'BAD_USER_INPUT', message: expect.stringMatching(/search/) });
  });
});

describe('transactionHistory filters', () => {
  it.each([
    ['status confirmed', { status: 'confirmed' }, ['tx-5', 'tx-1', 'tx-0']],
    ['status rejected', { status: 'rejected' }, ['tx-2']],
    ['status failed', { status: 'failed' }, ['tx-4']],
    ['status reverted', { status: 'reverted' }, ['tx-3']],
    ['status submitted', { status: 'submitted' }, ['tx-6']],
    ['status dropped (none)', { status: 'dropped' }, []],
    ['type Coin', { type: 'Coin' }, ['tx-6', 'tx-4', 'tx-0']],
    ['type Contract', { type: 'Contract' }, ['tx-5', 'tx-3', 'tx-2', 'tx-1']],
    ['a contract, any case', { contract: C1.toUpperCase().replace('0X', '0x') }, ['tx-5', 'tx-2', 'tx-1']],
    ['a function', { selector: '0xA9059CBB' }, ['tx-5', 'tx-1']],
    ['contract, function and status', { contract: C1, selector: '0x095ea7b3', status: 'rejected' }, ['tx-2']],
    ['a wallet and a status', { search: W1, status: 'confirmed', type: 'Coin' }, ['tx-0']],
    [
      'February 1–3 and confirmed',
      { from: '2024-02-01', to: '2024-02-04', status: 'confirmed' },
      ['tx-5', 'tx-1'],
    ],
  ])('%s', async (_name, filter, expected) => {
    const page = await history(filter);
    expect(ids(page)).toEqual(expected);
    expect(page.total).toBe(expected.length);
  });

  it('pages through what the filter keeps, the same total on every page', async () => {
    const seen: string[] = [];
    const totals: number[] = [];
    let after: string | null = null;
    for (let i = 0; i < 5; i++) {
      const page: Page = await history({ type: 'Contract', first: 3, after });
      seen.push(...ids(page));
      totals.push(page.total);
      after = page.nextCursor;
      if (!after) break;
    }
    expect(seen).toEqual(['tx-5', 'tx-3', 'tx-2', 'tx-1']);
    expect(totals).toEqual([4, 4]);
  });

  it.each([
    [{ status: 'pending' }, /status/],
    [{ type: 'Token' }, /type/],
    [{ contract: '0x1234' }, /contract/],
    [{ selector: 'transfer' }, /selector/],
  ])('%j → BAD_USER_INPUT', async (filter, message) => {
    const answer = await world.gql(HISTORY, { projectId: world.main, ...filter });
    expect(errorOf(answer)).toEqual({ code: 'BAD_USER_INPUT', message: expect.stringMatching(message) });
  });
});

describe('GET /api/v1/projects/:id/transactions.csv', () => {
  const api = () => apiClient(world.test.app);
  const csv = (projectId: string, query: string, token = world.owner.token) =>
    api().get(`projects/${projectId}/transactions.csv?${query}`, { token });
  let formula: { projectId: string; token: string };

  beforeAll(async () => {
    const { user, project } = await seed(world.test.services).user().verified().project('Formula');
    await storeRows(world.test.services.eventStore, [
      ...txRows(project.id, {
        txId: '=HYPERLINK("http://evil.example")',
        user: 'u1',
        kind: 'coin',
        chainId: 1,
        hash: hashOf(9),
        stages: [['requested', '2024-05-01T10:00:00Z', { browser: '+cmd|calc' }]],
      }),
    ]);
    formula = { projectId: project.id, token: user.token };
  });

  it('streams the whole filtered range, newest first, every row the total counts', async () => {
    const response = await csv(world.main, 'from=2024-01-01&to=2024-03-01&type=Contract');
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toBe('text/csv; charset=utf-8; header=present');
    expect(response.headers['content-disposition']).toBe(
      `attachment; filename="polyflow-transactions-${world.main}-2024-01-01T000000Z-2024-03-01T000000Z.csv"`,
    );
    const [header, ...records] = parseCsv(response.body);
    expect(header).toEqual([
      'id',
      'hash',
      'time',
      'wallet',
      'type',
      'status',
      'chain_id',
      'country',
      'browser',
    ]);
    expect(records).toEqual([
      [
        'tx-5',
        hashOf(5),
        '2024-02-02T12:10:00.000Z',
        `0x${'3'.repeat(40)}`,
        'Contract',
        'confirmed',
        '1',
        'US',
        'Chrome',
      ],
      ['tx-3', hashOf(3), '2024-02-02T10:00:00.000Z', W2, 'Contract', 'reverted', '137', 'US', 'Firefox'],
      ['tx-2', '', '2024-02-01T12:00:00.000Z', W2, 'Contract', 'rejected', '137', 'US', 'Firefox'],
      ['tx-1', hashOf(1), '2024-02-01T09:10:00.000Z', W1, 'Contract', 'confirmed', '1', 'DE', 'Chrome'],
    ]);
    const page = await history({ from: '2024-01-01', to: '2024-03-01', type: 'Contract' });
    expect(records.map((record) => record[0])).toEqual(ids(page));
  });

  it('reads the history a page at a time to its end, in its order', async () => {
    const analytics = createAnalyticsService({
      projects: world.test.services.projects,
      store: world.test.services.eventStore,
    });
    const { pages } = await analytics.transactionHistoryPages(world.owner.id, world.main, {}, 2);
    const read: string[][] = [];
    for await (const rows of pages) read.push(rows.map((row) => row.id));
    expect(read).toEqual([['tx-6', 'tx-5'], ['tx-3', 'tx-4'], ['tx-2', 'tx-1'], ['tx-0']]);
    const kept = await analytics.transactionHistoryPages(world.owner.id, world.main, { type: 'Coin' }, 3);
    const coins: string[][] = [];
    for await (const rows of kept.pages) coins.push(rows.map((row) => row.id));
    expect(coins).toEqual([['tx-6', 'tx-4', 'tx-0']]);
  });

  it('answers the header alone when nothing is kept', async () => {
    const response = await csv(world.main, 'status=dropped');
    expect(response.statusCode).toBe(200);
    expect(response.body).toBe('id,hash,time,wallet,type,status,chain_id,country,browser\r\n');
  });

  it('neutralises cells a spreadsheet would run as formulas', async () => {
    const response = await csv(formula.projectId, '', formula.token);
    const [, record] = parseCsv(response.body);
    expect(record?.[0]).toBe(`'=HYPERLINK("http://evil.example")`);
    expect(record?.[8]).toBe(`'+cmd|calc`);
  });

  it.each([
    ['a short search', 'search=0x1234', 'INVALID_REQUEST_BODY'],
    ['an unknown status', 'status=pending', 'INVALID_REQUEST_BODY'],
    ['a bad time', 'from=yesterday', 'INVALID_REQUEST_BODY'],
    ['an unknown parameter', 'format=ndjson', 'INVALID_REQUEST'],
  ])('refuses %s with a 400', async (_name, query, code) => {
    const response = await csv(world.main, query);
    expect(response.statusCode).toBe(400);
    expect(restErrorOf(response).errorCode).toBe(code);
  });

  it("answers 404 for another user's project", async () => {
    const response = await csv(world.foreign, 'status=confirmed');
    expect(response.statusCode).toBe(404);
  });
});
