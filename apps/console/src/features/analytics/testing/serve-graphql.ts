import type { AnalyticsOverview, TransactionDetail, TransactionRow } from '@polyflow/contracts/analytics';
import type { Project } from '@polyflow/contracts/projects';
import { json, mockApi, type RecordedRequest, type Reply } from '../../../testing/mock-api';

/** A GraphQL request as the server sees it: the (first) root field asked and the variables. */
export interface GraphqlCall {
  field: string;
  variables: Record<string, unknown>;
  headers: Headers;
}

type Answer = Reply | ((variables: Record<string, unknown>) => Reply | Promise<Reply>);

/** `data` of a successful answer. */
export const data = (value: Record<string, unknown>): Reply => json(200, { data: value });
/** A GraphQL error answer, as the server's errorFormatter writes it. */
export const graphqlError = (message: string, code = 'NOT_FOUND', status = 404): Reply =>
  json(400, { data: null, errors: [{ message, extensions: { code, status } }] });

function rootFieldOf(request: RecordedRequest): string {
  const query = (request.body as { query?: string } | undefined)?.query ?? '';
  return /\{\s*(\w+)\s*\(/.exec(query)?.[1] ?? 'unknown';
}

/**
 * Mocks `fetch` with the projects list (REST) and GraphQL answers per root field (`analyticsOverview`,
 * `countries`…). Fields without an answer get an empty successful one, so each test states only what it
 * looks at.
 */
export function serveAnalytics(projects: Project[], answers: Record<string, Answer> = {}) {
  const calls: GraphqlCall[] = [];
  const api = mockApi({
    'GET /projects': json(200, { projects }),
    'POST /api/graphql': async (request) => {
      const field = rootFieldOf(request);
      const variables = ((request.body as { variables?: Record<string, unknown> }).variables ?? {}) as Record<
        string,
        unknown
      >;
      calls.push({ field, variables, headers: request.headers });
      const answer = answers[field] ?? DEFAULT_ANSWERS[field];
      if (answer === undefined)
        return graphqlError(`No answer for ${field}`, 'GRAPHQL_VALIDATION_FAILED', 400);
      return typeof answer === 'function' ? answer(variables) : answer;
    },
  });
  return {
    ...api,
    graphql: calls,
    callsOf: (field: string) => calls.filter((call) => call.field === field),
  };
}

export function buildOverview(overrides: Partial<AnalyticsOverview> = {}): AnalyticsOverview {
  return {
    from: '2025-05-03T00:00:00.000Z',
    to: '2025-06-02T00:00:00.000Z',
    totalTransactions: 12345,
    connectedWallets: 1520,
    newWallets: 38,
    submittedTransactions: 12000,
    failedTransactions: 333,
    attemptedTransactions: 12333,
    transactionFailRate: 0.027,
    dailyActiveWallets: 73.26,
    averageTransactionsPerUserPerDay: 1.2345,
    dailyActiveWalletsTrend: {
      current: 73.26,
      previous: 42.35,
      change: 0.73,
      previousFrom: '2025-04-03T00:00:00.000Z',
      previousTo: '2025-05-03T00:00:00.000Z',
    },
    ...overrides,
  };
}

export function buildRow(overrides: Partial<TransactionRow> = {}): TransactionRow {
  return {
    id: 'tx-1',
    hash: '0xabcdef0123456789abcdef0123456789abcdef0123456789abcdef0123451234',
    time: '2025-06-01T14:03:27.000Z',
    wallet: '0x1111222233334444555566667777888899990000',
    type: 'Contract',
    status: 'confirmed',
    chainId: 1,
    country: 'DE',
    browser: 'Firefox',
    ...overrides,
  };
}

export function buildDetail(overrides: Partial<TransactionDetail> = {}): TransactionDetail {
  return {
    ...buildRow(),
    from: '0x1111222233334444555566667777888899990000',
    to: '0x7a250d5630b4cf539739df2c5dacb4c659f2488d',
    value: '250000000000000000',
    selector: '0x7ff36ab5',
    functionName: 'swapExactETHForTokens(uint256,address[],address,uint256)',
    revertReason: null,
    nonce: '7',
    gasLimit: '200000',
    gasPrice: null,
    maxFeePerGas: '30000000000',
    maxPriorityFeePerGas: '1500000000',
    gasUsed: '160123',
    effectiveGasPrice: '23400000000',
    fee: '3746878200000000',
    blockNumber: '19876543',
    walletProvider: 'MetaMask',
    os: 'Linux',
    path: '/swap',
    explorerUrl: 'https://etherscan.io/tx/0xabcdef0123456789abcdef0123456789abcdef0123456789abcdef0123451234',
    stages: [
      { stage: 'requested', time: '2025-06-01T14:03:27.000Z', errorCode: null, errorMessage: null },
      { stage: 'submitted', time: '2025-06-01T14:03:31.000Z', errorCode: null, errorMessage: null },
      { stage: 'confirmed', time: '2025-06-01T14:03:45.000Z', errorCode: null, errorMessage: null },
    ],
    ...overrides,
  };
}

const DEFAULT_ANSWERS: Record<string, Answer> = {
  analyticsOverview: data({ analyticsOverview: buildOverview() }),
  averageGasPrice: data({ averageGasPrice: [] }),
  failedTransactions: data({ failedTransactions: [] }),
  contractFunctions: data({ contractFunctions: [] }),
  walletProviders: data({ walletProviders: [] }),
  countries: data({ countries: [] }),
  browsers: data({ browsers: [] }),
  topPages: data({ topPages: [] }),
  topReferrers: data({ topReferrers: [] }),
  transactionHistory: data({ transactionHistory: { rows: [], nextCursor: null } }),
  transaction: data({ transaction: null }),
};
