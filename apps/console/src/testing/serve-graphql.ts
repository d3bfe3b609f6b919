import type { AcquisitionFilterOptions, AttributionRow, FunnelStep } from '@polyflow/contracts/acquisition';
import type { Project } from '@polyflow/contracts/projects';
import { json, mockApi, type RecordedRequest, type Reply } from './mock-api';

/** A GraphQL request as the server sees it: the operation name and its variables. */
export interface GraphqlCall {
  operation: string;
  variables: Record<string, unknown>;
}

export type Answer = Reply | ((variables: Record<string, unknown>) => Reply);

export const data = (value: Record<string, unknown>): Reply => json(200, { data: value });
export const graphqlError = (message: string, code = 'BAD_USER_INPUT', status = 400): Reply =>
  json(400, { data: null, errors: [{ message, extensions: { code, status } }] });

function operationOf(request: RecordedRequest): string {
  const query = (request.body as { query?: string } | undefined)?.query ?? '';
  return /(?:query|mutation)\s+(\w+)/.exec(query)?.[1] ?? 'unknown';
}

/** Mocks `fetch`: the projects list (REST) and GraphQL answers by operation name; others fail loudly. */
export function serveGraphql(projects: Project[], answers: Record<string, Answer>) {
  const calls: GraphqlCall[] = [];
  mockApi({
    'GET /projects': json(200, { projects }),
    'POST /api/graphql': (request) => {
      const operation = operationOf(request);
      const variables = (request.body as { variables?: Record<string, unknown> }).variables ?? {};
      calls.push({ operation, variables });
      const answer = answers[operation];
      if (answer === undefined)
        return graphqlError(`No answer for ${operation}`, 'GRAPHQL_VALIDATION_FAILED');
      return typeof answer === 'function' ? answer(variables) : answer;
    },
  });
  return {
    calls,
    callsOf: (operation: string) => calls.filter((call) => call.operation === operation),
    lastCallOf: (operation: string) => calls.filter((call) => call.operation === operation).at(-1),
    /** The last call for the period on screen, not the previous period's (`previous: true`). */
    lastCurrentCallOf: (operation: string) =>
      calls.filter((call) => call.operation === operation && call.variables.previous !== true).at(-1),
  };
}

export function buildFunnel(
  total: number,
  counts: number[],
): { steps: FunnelStep[]; from: string; to: string } {
  const keys = [
    ['totalUsers', 'Total Users'],
    ['haveWallets', 'Have Wallets'],
    ['haveConnectedWallet', 'Have Connected Wallet'],
    ['haveExecutedTransaction', 'Have Executed a Transaction'],
    ['haveExecutedMultipleTransactions', 'Have Executed Multiple TXs'],
    ['signedData', 'Signed Data'],
  ] as const;
  return {
    from: '2025-05-03T00:00:00.000Z',
    to: '2025-06-02T00:00:00.000Z',
    steps: keys.map(([key, label], index) => {
      const users = index === 0 ? total : (counts[index - 1] ?? 0);
      return { key, label, users, share: total === 0 ? null : users / total };
    }),
  };
}

export function buildAttributionRow(
  kind: AttributionRow['kind'],
  value: string | null,
  counts: { newWallets: number; connects: number; transactions: number; sessions: number; users: number },
): AttributionRow {
  const sessionsWithTransaction = Math.min(counts.transactions, counts.sessions);
  const usersWithTransaction = Math.min(counts.transactions, counts.users);
  const sessionsWithConnect = Math.min(counts.connects, counts.sessions);
  const usersWithConnect = Math.min(counts.connects, counts.users);
  const rate = (part: number, whole: number) => (whole === 0 ? null : part / whole);
  return {
    kind,
    value,
    ...counts,
    sessionsWithTransaction,
    usersWithTransaction,
    sessionsWithConnect,
    usersWithConnect,
    transactionSessionRate: rate(sessionsWithTransaction, counts.sessions),
    transactionUserRate: rate(usersWithTransaction, counts.users),
    connectSessionRate: rate(sessionsWithConnect, counts.sessions),
    connectUserRate: rate(usersWithConnect, counts.users),
  };
}

export function buildFilterOptions(
  overrides: Partial<AcquisitionFilterOptions> = {},
): AcquisitionFilterOptions {
  return {
    countries: [
      { value: 'US', users: 40 },
      { value: 'DE', users: 25 },
    ],
    terms: [{ value: 'wallet', users: 12 }],
    sources: [
      { value: 'twitter', users: 30 },
      { value: 'discord', users: 10 },
    ],
    mediums: [],
    campaigns: [],
    contents: [],
    browsers: [],
    walletProviders: [],
    ...overrides,
  };
}
