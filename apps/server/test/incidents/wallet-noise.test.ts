import { randomBytes } from 'node:crypto';
import type { IngestEventInput } from '@polyflow/contracts/events';
import { IncidentListSchema } from '@polyflow/contracts/incidents';
import { describe, expect, it } from 'vitest';
import { dataOf, graphqlClient } from '../analytics/graphql-client.ts';
import { CHROME_UA, GB_IP, postBatch, storedEvents } from '../ingestion/support.ts';
import { apiClient } from '../support/client.ts';
import { useTestApp } from '../support/harness.ts';
import { type SeededUser, seed } from '../support/seed.ts';

/**
 * Wallet noise (ADR 067, docs/acquisition-and-incidents.md "What is an incident"): a wallet error whose
 * code the project ignores (4001 by default) is stored but is no incident, through `POST /api/v1/events`
 * and through the published 1.0.25 SDK's mutations; a change of the list applies to new events only; and
 * every other figure (funnel, overview, the wallet's page) answers the same whatever the list. On the
 * event store EVENT_STORE names (the server-clickhouse project runs it on ClickHouse).
 */

const ADDRESS = '0x70997970c51812dc3a010c7d01b50e0d17dc79c8';
const HOUR = 3_600_000;
const t = useTestApp('sqlite');
const gql = () => graphqlClient(t.app);
let owner: SeededUser;

const id = () => `ev_${randomBytes(9).toString('base64url')}`;
/** The refusal exactly as the issue reports it, sent by a client other than the SDK's own flow. */
const refusal = (
  ts: number,
  sessionId: string,
  code = 4001,
  message = 'User rejected the request.',
): IngestEventInput => ({
  id: id(),
  ts,
  userId: 'user-1',
  sessionId,
  path: '/swap',
  type: 'error',
  source: 'wallet',
  code,
  method: 'eth_sendTransaction',
  message,
  wallet: { address: ADDRESS },
});
/** A session: a page, a connection, a transaction the user rejects (as the SDK records it), a real wallet error. */
function session(ts: number, sessionId: string): IngestEventInput[] {
  const base = { ts, userId: 'user-1', sessionId, path: '/swap' };
  const wallet = { address: ADDRESS, provider: 'MetaMask', chainId: 8453 };
  return [
    { ...base, id: id(), type: 'page_view' },
    { ...base, id: id(), ts: ts + 1, type: 'wallet_connected', wallet },
    {
      ...base,
      id: id(),
      ts: ts + 2,
      type: 'tx',
      wallet,
      txId: `${sessionId}-tx`,
      stage: 'requested',
      kind: 'coin',
    },
    {
      ...base,
      id: id(),
      ts: ts + 3,
      type: 'tx',
      wallet,
      txId: `${sessionId}-tx`,
      stage: 'rejected',
      kind: 'coin',
      error: { code: 4001, message: 'User rejected the request.' },
    },
    refusal(ts + 4, sessionId),
    {
      ...base,
      id: id(),
      ts: ts + 5,
      type: 'error',
      source: 'wallet',
      code: -32603,
      method: 'eth_call',
      message: 'Internal JSON-RPC error.',
      wallet: { address: ADDRESS },
    },
  ] as IngestEventInput[];
}

type Project = { id: string; apiKey: string };

async function post(target: Project, domain: string, events: IngestEventInput[]) {
  const response = await postBatch(t.app, { apiKey: target.apiKey, events }, { origin: `https://${domain}` });
  expect(response.statusCode, response.body).toBe(200);
}

/** The published 1.0.25 SDK's report of an unhandled rejection: the reason's message and stack. */
async function postLegacyError(target: Project, domain: string, errors: string[]) {
  const response = await t.app.inject({
    method: 'POST',
    url: '/api/graphql',
    headers: {
      'content-type': 'application/json',
      'x-api-key': target.apiKey,
      origin: `https://${domain}`,
      'user-agent': CHROME_UA,
    },
    payload: JSON.stringify({
      query: `mutation CreateErrorEvent($event: ErrorEventInput!) {
        createErrorEvent(event: $event) { id, tracker { userId } } }`,
      variables: {
        event: {
          tracker: { eventTracker: 'GENERIC_ERROR', userId: 'legacy-user', sessionId: 'legacy-session' },
          device: { os: 'Linux', browser: 'Chrome', walletProvider: 'none' },
          errors,
        },
      },
    }),
    remoteAddress: GB_IP,
  });
  expect(response.json().errors, response.body).toBeUndefined();
}

const LIST = `query List($projectId: ID!, $from: DateTime, $to: DateTime) {
  incidents(projectId: $projectId, from: $from, to: $to, statuses: [open, resolved, ignored], first: 100) {
    totalIncidents matching
    rows { id type title code method occurrences status assignee { userId } }
  } }`;

async function incidents(target: Project, token = owner.token) {
  await t.services.events.flush();
  const range = {
    from: new Date(Date.now() - 30 * 24 * HOUR).toISOString(),
    to: new Date(Date.now() + HOUR).toISOString(),
  };
  const answer = await gql()(LIST, { projectId: target.id, ...range }, { token });
  return IncidentListSchema.pick({ totalIncidents: true, matching: true })
    .passthrough()
    .parse(dataOf(answer).incidents) as unknown as {
    totalIncidents: number;
    rows: { title: string; code: number | null; method: string | null; occurrences: number; type: string }[];
  };
}

describe('wallet noise', () => {
  it('4001 is no incident through POST /api/v1/events and the 1.0.25 mutations; the events are stored', async () => {
    const built = await seed(t.services)
      .user()
      .verified()
      .project('Noise')
      .apiKey()
      .domain('noise.example.com');
    owner = built.user;
    const target = { id: built.project.id, apiKey: built.project.apiKey as string };
    const now = Date.now() - HOUR;
    await post(target, 'noise.example.com', session(now, 's1'));
    await postLegacyError(target, 'noise.example.com', [
      'User rejected the request.',
      'Error: User rejected the request.\n    at sendTransaction (https://noise.example.com/assets/index.js:1:48213)',
    ]);
    await postLegacyError(target, 'noise.example.com', ['TypeError: Cannot read properties of undefined']);

    const list = await incidents(target);
    expect(list.rows.map((row) => [row.type, row.code, row.method, row.occurrences]).sort()).toEqual([
      ['wallet', -32603, 'eth_call', 1],
      ['window', null, null, 1],
    ]);
    expect(list.rows.find((row) => row.type === 'window')?.title).toBe(
      'TypeError: Cannot read properties of undefined',
    );
    const stored = await storedEvents(t.services, target.id);
    const errors = stored.filter((row) => row.type === 'error');
    expect(errors).toHaveLength(4);
    // Both refusals are kept, with their code, without an incident.
    const refusals = errors.filter((row) => row.error_message === 'User rejected the request.');
    expect(refusals.map((row) => [row.error_source, row.error_code, row.incident_id]).sort()).toEqual([
      ['wallet', 4001, null],
      ['window', null, null],
    ]);
  });

  it('a changed list applies to new occurrences only: earlier incidents and earlier refusals stay as they were', async () => {
    const built = await seed(t.services)
      .user()
      .verified()
      .project('Changing')
      .apiKey()
      .domain('change.example.com');
    owner = built.user;
    const target = { id: built.project.id, apiKey: built.project.apiKey as string };
    const api = apiClient(t.app);
    const setCodes = async (codes: number[]) => {
      const response = await api.request('PUT', `/api/v1/projects/${target.id}/ignored-wallet-codes`, {
        token: owner.token,
        body: { codes },
      });
      expect(response.statusCode, response.body).toBe(200);
      return response.json() as { ignoredWalletCodes: number[] };
    };
    const start = Date.now() - 5 * HOUR;
    await post(target, 'change.example.com', [refusal(start, 'a')]);
    expect((await incidents(target)).rows).toEqual([]);

    // Refusals become incidents from now on; the one before stays outside.
    expect((await setCodes([])).ignoredWalletCodes).toEqual([]);
    await post(target, 'change.example.com', [refusal(start + HOUR, 'b')]);
    let rows = (await incidents(target)).rows;
    expect(rows.map((row) => [row.code, row.occurrences])).toEqual([[4001, 1]]);

    // Ignoring -32603 and 4001 again: the 4001 incident keeps its one occurrence, the new -32603 is none.
    expect((await setCodes([-32603, 4001])).ignoredWalletCodes).toEqual([-32603, 4001]);
    await post(target, 'change.example.com', [
      refusal(start + 2 * HOUR, 'c'),
      refusal(start + 2 * HOUR, 'c', -32603, 'Internal JSON-RPC error.'),
    ]);
    rows = (await incidents(target)).rows;
    expect(rows.map((row) => [row.code, row.occurrences])).toEqual([[4001, 1]]);
    expect((await storedEvents(t.services, target.id)).filter((row) => row.type === 'error')).toHaveLength(4);
  });

  it('funnel, overview and the wallet page answer the same whatever the list (refusals still count there)', async () => {
    const ignoring = await seed(t.services)
      .user()
      .verified()
      .project('Ignoring')
      .apiKey()
      .domain('a.example.com');
    const keeping = await seed(t.services)
      .user()
      .verified()
      .project('Keeping')
      .apiKey()
      .domain('b.example.com');
    const response = await apiClient(t.app).request(
      'PUT',
      `/api/v1/projects/${keeping.project.id}/ignored-wallet-codes`,
      { token: keeping.user.token, body: { codes: [] } },
    );
    expect(response.statusCode, response.body).toBe(200);
    const at = Date.now() - 2 * HOUR;
    for (const [built, domain] of [
      [ignoring, 'a.example.com'],
      [keeping, 'b.example.com'],
    ] as const) {
      await post({ id: built.project.id, apiKey: built.project.apiKey as string }, domain, session(at, 's1'));
    }
    await t.services.events.flush();
    const range = {
      from: new Date(at - 24 * HOUR).toISOString(),
      to: new Date(at + 24 * HOUR).toISOString(),
    };
    const FIGURES = `query Figures($projectId: ID!, $from: DateTime, $to: DateTime, $address: String!) {
      analyticsOverview(projectId: $projectId, from: $from, to: $to) {
        totalTransactions submittedTransactions failedTransactions attemptedTransactions transactionFailRate }
      acquisitionFunnel(projectId: $projectId, from: $from, to: $to) { steps { key users share } }
      wallet(projectId: $projectId, address: $address) {
        transactions failedBeforeSubmission reverted sessionCount
        sessions { events { type txStage errorSource errorCode errorMessage } } }
    }`;
    const figures = async (built: typeof ignoring) =>
      dataOf(
        await gql()(
          FIGURES,
          { projectId: built.project.id, address: ADDRESS, ...range },
          { token: built.user.token },
        ),
      );
    const [a, b] = [await figures(ignoring), await figures(keeping)];
    expect(a).toEqual(b);
    // The refusal is on the wallet's page, and the rejected transaction counts as a transaction.
    expect(JSON.stringify(a)).toContain('"errorCode":4001');
    expect((a.analyticsOverview as { totalTransactions: number }).totalTransactions).toBe(1);
    const counts = async (built: typeof ignoring) =>
      (await incidents({ id: built.project.id, apiKey: built.project.apiKey as string }, built.user.token))
        .rows.length;
    expect([await counts(ignoring), await counts(keeping)]).toEqual([1, 2]);
  });
});
