import { rmSync } from 'node:fs';
import { IncidentListSchema, IncidentRowSchema } from '@polyflow/contracts/incidents';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../src/app.ts';
import { blankRow } from '../../src/modules/event-store/event-row.ts';
import { incidentIdOf } from '../../src/modules/incidents/fingerprint.ts';
import { dataOf, errorOf, graphqlClient } from '../analytics/graphql-client.ts';
import { storeRows } from '../support/event-stores.ts';
import { ENGINES_BESIDE_EVENT_STORE, startTestApp, type TestApp } from '../support/harness.ts';
import { type SeededUser, seed } from '../support/seed.ts';
import { incidentEvents, W1 } from './fixture.ts';
import { FINGERPRINTS, LIST_QUERY } from './setup.ts';

const SET_STATUS = `
  mutation SetStatus($projectId: ID!, $id: ID!, $status: IncidentStatus!) {
    setIncidentStatus(projectId: $projectId, id: $id, status: $status) {
      id status isRegression statusChangedAt severity lastSeen
    }
  }`;

/**
 * Resolve / ignore: the owner's decision is stored per project in the account store (SQLite or
 * PostgreSQL), survives a restart, and a resolved incident that occurs again comes back as a regression.
 */
describe.each(ENGINES_BESIDE_EVENT_STORE)('incident status on %s', (engine) => {
  let test: TestApp;
  let app: FastifyInstance;
  let owner: SeededUser;
  let stranger: SeededUser;
  let projectId: string;
  const ids = { B: '', C: '', E: '' };
  // The fixture's week; a later range is used once the regression has happened (now, in the test clock).
  const WEEK = { from: '2024-03-01T00:00:00Z', to: '2024-03-08T00:00:00Z' };

  const gql = (query: string, variables: Record<string, unknown>, token = owner.token) =>
    graphqlClient(app)(query, variables, { token });
  const setStatus = async (id: string, status: string, token?: string) =>
    gql(SET_STATUS, { projectId, id, status }, token);
  const list = async (variables: Record<string, unknown> = {}) =>
    IncidentListSchema.parse(dataOf(await gql(LIST_QUERY, { projectId, ...WEEK, ...variables })).incidents);
  const rowIds = (answer: { rows: { id: string }[] }) => answer.rows.map((row) => row.id);

  beforeAll(async () => {
    test = await startTestApp(engine);
    app = test.app;
    const seeded = await seed(test.services).user().verified().project('Main');
    owner = seeded.user;
    projectId = seeded.project.id;
    stranger = (await seed(test.services).user().verified().project('Other')).user;
    await storeRows(test.services.eventStore, incidentEvents(projectId));
    ids.B = incidentIdOf(projectId, FINGERPRINTS.B);
    ids.C = incidentIdOf(projectId, FINGERPRINTS.C);
    ids.E = incidentIdOf(projectId, FINGERPRINTS.E);
  });
  afterAll(async () => {
    await app?.close();
    await test?.mail.close();
    rmSync(test.config.dataDir, { recursive: true, force: true });
  });

  it('resolves and ignores: both leave the default list, each shows under its own status', async () => {
    const before = await list();
    expect(before.byStatus).toEqual({ open: 5, resolved: 0, ignored: 0 });

    const resolved = await setStatus(ids.B, 'resolved');
    const row = IncidentRowSchema.pick({ id: true, status: true, isRegression: true, statusChangedAt: true })
      .passthrough()
      .parse(dataOf(resolved).setIncidentStatus);
    expect(row).toMatchObject({ id: ids.B, status: 'resolved', isRegression: false });
    expect(Math.abs(Date.parse(row.statusChangedAt ?? '') - test.clock().getTime())).toBeLessThan(5_000);
    expect(dataOf(await setStatus(ids.C, 'ignored')).setIncidentStatus).toMatchObject({ status: 'ignored' });

    const open = await list();
    expect(rowIds(open)).not.toContain(ids.B);
    expect(rowIds(open)).not.toContain(ids.C);
    expect(open.rows).toHaveLength(3);
    // The summary counts what the list shows; byStatus counts the whole period.
    expect(open.totalIncidents).toBe(3);
    expect(open.byStatus).toEqual({ open: 3, resolved: 1, ignored: 1 });
    expect(rowIds(await list({ statuses: ['resolved'] }))).toEqual([ids.B]);
    expect(rowIds(await list({ statuses: ['ignored'] }))).toEqual([ids.C]);
    expect((await list({ statuses: ['open', 'resolved', 'ignored'] })).rows).toHaveLength(5);
  });

  it('keeps the decisions over a restart', async () => {
    await app.close();
    app = await buildApp(test.config, { clock: test.clock });
    await app.ready();
    expect(rowIds(await list({ statuses: ['resolved'] }))).toEqual([ids.B]);
    expect(rowIds(await list({ statuses: ['ignored'] }))).toEqual([ids.C]);
  });

  it('brings a resolved incident back as a regression when it occurs again; an ignored one stays hidden', async () => {
    const resolvedAt = test.clock().getTime();
    test.clock.advance(60_000);
    const at = resolvedAt + 30_000;
    const again = (id: string, fields: Record<string, unknown>) => ({
      ...blankRow({
        project_id: projectId,
        id,
        type: 'error',
        ts: at,
        received_at: at + 100,
        user_id: 'u1',
        session_id: `${projectId.slice(0, 8)}-again`,
        origin: 'app.example.com',
      }),
      wallet_address: W1,
      ...fields,
    });
    await storeRows(app.services.eventStore, [
      again('status_again_b', {
        error_source: 'wallet',
        error_code: -32603,
        rpc_method: 'eth_sendTransaction',
        error_message: 'Internal JSON-RPC error.',
      }),
      again('status_again_c', {
        error_source: 'promise',
        error_message: 'Request to https://rpc.example.com/v2 failed after 4000ms',
      }),
    ]);
    const lately = { from: WEEK.from, to: new Date(test.clock().getTime() + 1000).toISOString() };

    const open = await list(lately);
    const b = open.rows.find((row) => row.id === ids.B);
    expect(b).toMatchObject({ status: 'open', isRegression: true });
    expect(rowIds(open)).not.toContain(ids.C);
    expect(rowIds(await list({ ...lately, statuses: ['resolved'] }))).toEqual([]);
    expect(rowIds(await list({ ...lately, statuses: ['ignored'] }))).toEqual([ids.C]);

    // Resolving it again clears the flag until the next occurrence.
    expect(dataOf(await setStatus(ids.B, 'resolved')).setIncidentStatus).toMatchObject({
      status: 'resolved',
      isRegression: false,
    });
    expect(rowIds(await list(lately))).not.toContain(ids.B);
  });

  it('reopens (un-ignores) an incident', async () => {
    expect(dataOf(await setStatus(ids.C, 'open')).setIncidentStatus).toMatchObject({
      status: 'open',
      isRegression: false,
      statusChangedAt: null,
    });
    expect(rowIds(await list())).toContain(ids.C);
  });

  it("answers NOT_FOUND for another user's project and for an incident the project never had", async () => {
    const foreign = await setStatus(ids.E, 'resolved', stranger.token);
    expect(errorOf(foreign).code).toBe('NOT_FOUND');
    expect(foreign.data ?? null).toBeNull();
    const unknown = await setStatus(`inc_${'0'.repeat(24)}`, 'resolved');
    expect(errorOf(unknown).code).toBe('NOT_FOUND');
    expect(rowIds(await list())).toContain(ids.E);
  });

  it('refuses a malformed id or status with a 400 and stores nothing', async () => {
    const badId = await setStatus('not-an-incident', 'resolved');
    expect(badId.status).toBe(400);
    expect(errorOf(badId).code).toBe('BAD_USER_INPUT');
    const badStatus = await setStatus(ids.E, 'fixed');
    expect(badStatus.status).toBe(400);
    expect(badStatus.data ?? null).toBeNull();
    expect((await list()).rows.find((row) => row.id === ids.E)?.status).toBe('open');
  });
});
