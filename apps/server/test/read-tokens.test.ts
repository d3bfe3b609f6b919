import { CreatedReadTokenSchema, ReadTokenListSchema } from '@polyflow/contracts/projects';
import { describe, expect, it } from 'vitest';
import { sha256 } from '../src/lib/ids.ts';
import { dataOf, graphqlClient, errorOf as graphqlErrorOf } from './analytics/graphql-client.ts';
import { pageView, postBatch, storedEvents } from './ingestion/support.ts';
import { apiClient, errorOf } from './support/client.ts';
import { ENGINES, useTestApp } from './support/harness.ts';
import { seed } from './support/seed.ts';

const OVERVIEW = 'query($p: ID!) { analyticsOverview(projectId: $p) { totalTransactions } }';
const INCIDENTS = 'query($p: ID!) { incidents(projectId: $p) { totalIncidents } }';
const FUNNEL = 'query($p: ID!) { acquisitionFunnel(projectId: $p) { from } }';
const SET_STATUS =
  'mutation($p: ID!) { setIncidentStatus(projectId: $p, id: "i-1", status: resolved) { status } }';
const EXPORT_QUERY = 'export/events?from=2020-01-01&to=2100-01-01';

describe.each(ENGINES)('read tokens on %s', (engine) => {
  const t = useTestApp(engine);
  const api = () => apiClient(t.app);
  const gql = () => graphqlClient(t.app);

  async function ownerWithToken(name = 'Metabase') {
    const seeded = await seed(t.services).user().verified().project().apiKey().domain('app.example.com');
    const created = await api().post(`projects/${seeded.project.id}/read-tokens`, {
      token: seeded.user.token,
      body: { name },
    });
    expect(created.statusCode).toBe(201);
    return { ...seeded, readToken: CreatedReadTokenSchema.parse(created.json()) };
  }

  it('creates a token shown once and stored hashed, lists them without values, and revokes', async () => {
    const { user, project, readToken } = await ownerWithToken('  Metabase  ');
    expect(readToken).toMatchObject({
      name: 'Metabase',
      token: expect.stringMatching(/^pfr_[0-9A-Za-z]{40}$/),
    });
    expect(Date.parse(readToken.createdAt)).not.toBeNaN();
    const rows = await t.services.db.selectFrom('read_tokens').selectAll().execute();
    const row = rows.find((candidate) => candidate.id === readToken.id);
    expect(row).toMatchObject({ project_id: project.id, token_hash: sha256(readToken.token) });
    expect(JSON.stringify(rows)).not.toContain(readToken.token);

    await api().post(`projects/${project.id}/read-tokens`, { token: user.token, body: { name: 'Script' } });
    const listed = await api().get(`projects/${project.id}/read-tokens`, { token: user.token });
    expect(listed.statusCode).toBe(200);
    const list = ReadTokenListSchema.parse(listed.json()).readTokens;
    expect(list.map((token) => token.name)).toEqual(['Metabase', 'Script']);
    expect(listed.body).not.toContain('pfr_');
    expect(Object.keys(list[0] ?? {}).sort()).toEqual(['createdAt', 'id', 'name']);

    const revoked = await api().delete(`projects/${project.id}/read-tokens/${readToken.id}`, {
      token: user.token,
    });
    expect(revoked.statusCode).toBe(204);
    const after = ReadTokenListSchema.parse(
      (await api().get(`projects/${project.id}/read-tokens`, { token: user.token })).json(),
    );
    expect(after.readTokens.map((token) => token.name)).toEqual(['Script']);
    const again = await api().delete(`projects/${project.id}/read-tokens/${readToken.id}`, {
      token: user.token,
    });
    expect(again.statusCode).toBe(404);
    expect(errorOf(again).errorCode).toBe('RESOURCE_NOT_FOUND');
  });

  it("reads its project's analytics, acquisition and incident queries and its export", async () => {
    const { project, readToken } = await ownerWithToken();
    const sent = await postBatch(t.app, {
      apiKey: project.apiKey ?? '',
      events: [pageView({ ts: Date.UTC(2026, 0, 5) })],
    });
    expect(sent.statusCode).toBe(200);
    const [stored] = await storedEvents(t.services, project.id);

    for (const query of [OVERVIEW, INCIDENTS, FUNNEL]) {
      const answer = await gql()(query, { p: project.id }, { token: readToken.token });
      expect(answer.status).toBe(200);
      dataOf(answer);
    }
    const overview = dataOf(await gql()(OVERVIEW, { p: project.id }, { token: readToken.token }));
    expect(overview.analyticsOverview).toEqual({ totalTransactions: 0 });
    const exported = await api().get(`projects/${project.id}/${EXPORT_QUERY}`, { token: readToken.token });
    expect(exported.statusCode).toBe(200);
    expect(JSON.parse(exported.body.trim())).toMatchObject({ id: stored?.id, project_id: project.id });
  });

  it('reads nothing else: another project looks absent, mutations and REST routes are refused', async () => {
    const { user, project, readToken } = await ownerWithToken();
    // The same owner's second project: a token is for one project, not for its owner's account.
    const { project: sibling } = await seed(t.services).user().verified().project('Other');
    const ownSibling = await api().post('projects', { token: user.token, body: { name: 'Sibling' } });
    const siblingId = (ownSibling.json() as { id: string }).id;
    const token = readToken.token;

    for (const other of [sibling.id, siblingId]) {
      for (const query of [OVERVIEW, INCIDENTS, FUNNEL]) {
        const answer = await gql()(query, { p: other }, { token });
        expect(graphqlErrorOf(answer)).toEqual({ code: 'NOT_FOUND', message: 'Project not found.' });
      }
      const exported = await api().get(`projects/${other}/${EXPORT_QUERY}`, { token });
      expect(exported.statusCode).toBe(404);
      expect(errorOf(exported).errorCode).toBe('RESOURCE_NOT_FOUND');
    }

    const mutation = await gql()(SET_STATUS, { p: project.id }, { token });
    expect(graphqlErrorOf(mutation).code).toBe('FORBIDDEN');
    expect(await t.services.db.selectFrom('incident_states').selectAll().execute()).toEqual([]);

    const id = project.id;
    const rest = [
      api().get('projects', { token }),
      api().post('projects', { token, body: { name: 'x' } }),
      api().post(`projects/${id}/api-key`, { token }),
      api().delete(`projects/${id}/api-key`, { token }),
      api().patch(`projects/${id}/domains/add`, { token, body: { domain: 'evil.example' } }),
      api().patch(`projects/${id}`, { token, body: { retentionDays: 1 } }),
      api().post(`projects/${id}/forget`, { token, body: { userId: 'user-1' } }),
      api().get(`projects/${id}/read-tokens`, { token }),
      api().post(`projects/${id}/read-tokens`, { token, body: { name: 'more' } }),
      api().delete(`projects/${id}/read-tokens/${readToken.id}`, { token }),
      api().get(`projects/${id}/integration`, { token }),
      api().delete(`projects/${id}`, { token }),
    ];
    for (const response of await Promise.all(rest)) {
      expect(response.statusCode, response.body).toBe(403);
      expect(errorOf(response).errorCode).toBe('ACCESS_FORBIDDEN');
    }
    const project_ = await t.services.projects.getProjectFor(user.id, id);
    expect(project_).toMatchObject({ apiKey: project.apiKey, retentionDays: null });
  });

  it('stops working once revoked, and with its project; unknown tokens get 401', async () => {
    const { user, project, readToken } = await ownerWithToken();
    const refused = async (token: string) => {
      const answer = await gql()(OVERVIEW, { p: project.id }, { token });
      expect(graphqlErrorOf(answer).code).toBe('BAD_AUTHENTICATION');
      const exported = await api().get(`projects/${project.id}/${EXPORT_QUERY}`, { token });
      expect(exported.statusCode).toBe(401);
      expect(errorOf(exported).errorCode).toBe('BAD_AUTHENTICATION');
    };
    await refused(`pfr_${'x'.repeat(40)}`);
    await refused('pfr_short');
    await api().delete(`projects/${project.id}/read-tokens/${readToken.id}`, { token: user.token });
    await refused(readToken.token);

    const second = await ownerWithToken();
    await api().delete(`projects/${second.project.id}`, { token: second.user.token });
    const answer = await gql()(OVERVIEW, { p: second.project.id }, { token: second.readToken.token });
    expect(graphqlErrorOf(answer).code).toBe('BAD_AUTHENTICATION');
  });

  it("answers another user's project as absent and refuses bad input, writing nothing", async () => {
    const { project, readToken } = await ownerWithToken();
    const stranger = await seed(t.services).user().verified();
    const token = stranger.token;
    const before = await t.services.db.selectFrom('read_tokens').selectAll().orderBy('id').execute();
    for (const response of await Promise.all([
      api().post(`projects/${project.id}/read-tokens`, { token, body: { name: 'mine now' } }),
      api().get(`projects/${project.id}/read-tokens`, { token }),
      api().delete(`projects/${project.id}/read-tokens/${readToken.id}`, { token }),
      api().get('projects/not-a-uuid/read-tokens', { token }),
    ])) {
      expect(response.statusCode).toBe(404);
      expect(errorOf(response).errorCode).toBe('RESOURCE_NOT_FOUND');
    }
    const owner = project.ownerId;
    const ownerToken = (
      await t.services.sessions.issue(
        await t.services.db.selectFrom('users').selectAll().where('id', '=', owner).executeTakeFirstOrThrow(),
      )
    ).token;
    for (const body of [
      {},
      { name: '' },
      { name: '   ' },
      { name: 'x'.repeat(101) },
      { name: 'a\u0000b' },
      { name: 5 },
      { name: 'ok', extra: 1 },
    ]) {
      const response = await api().post(`projects/${project.id}/read-tokens`, { token: ownerToken, body });
      expect(response.statusCode, JSON.stringify(body)).toBe(400);
      expect(errorOf(response).errorCode).toBe('INVALID_REQUEST_BODY');
    }
    for (const tokenId of ['not-a-uuid', '00000000-0000-4000-8000-000000000000']) {
      const response = await api().delete(`projects/${project.id}/read-tokens/${tokenId}`, {
        token: ownerToken,
      });
      expect(response.statusCode).toBe(404);
    }
    const anonymous = await api().get(`projects/${project.id}/read-tokens`);
    expect(anonymous.statusCode).toBe(401);
    expect(await t.services.db.selectFrom('read_tokens').selectAll().orderBy('id').execute()).toEqual(before);
  });

  it('caps the tokens of a project', async () => {
    const { user, project } = await ownerWithToken();
    for (let index = 1; index < 25; index++) {
      const response = await api().post(`projects/${project.id}/read-tokens`, {
        token: user.token,
        body: { name: `t${index}` },
      });
      expect(response.statusCode).toBe(201);
    }
    const over = await api().post(`projects/${project.id}/read-tokens`, {
      token: user.token,
      body: { name: 'one more' },
    });
    expect(over.statusCode).toBe(400);
    expect(errorOf(over).message).toBe('A project can have at most 25 read tokens.');
  });
});
