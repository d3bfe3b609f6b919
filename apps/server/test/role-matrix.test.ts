import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { ProjectListSchema } from '@polyflow/contracts/projects';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { newEmailToken, newId, sha256 } from '../src/lib/ids.ts';
import { graphqlClient } from './analytics/graphql-client.ts';
import { apiClient } from './support/client.ts';
import { ENGINES, useTestApp } from './support/harness.ts';
import { type SeededUser, seed, snapshot } from './support/seed.ts';

/**
 * The role-by-route matrix (issue 26, docs/teams.md): every REST route about projects and every GraphQL
 * operation, called by the owner, an admin, a viewer, a non-member and a read token of the project, on
 * a fresh project each time (a route's refused callers share one). A refusal writes nothing (every account
 * table compared before and after).
 */

const CALLERS = ['owner', 'admin', 'viewer', 'nonMember', 'readToken'] as const;
type Caller = (typeof CALLERS)[number];
type Expected = Record<Caller, number>;

type Team = {
  projectId: string;
  tokens: Record<Caller, string>;
  ids: {
    admin: string;
    other: string;
    invitation: string;
    readToken: string;
    alertRule: string;
    writeToken: string;
    alertChannel: string;
    annotation: string;
    funnel: string;
    goal: string;
  };
  /** The token of an invitation sent to the non-member's address. */
  acceptToken: string;
};

type RestCase = {
  method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  /** The route as Fastify knows it, to check that the matrix covers every one. */
  route: string;
  url(team: Team): string;
  body?(team: Team): unknown;
  /** A body that is not JSON (a multipart upload): sent as is. */
  raw?: { payload: string; contentType: string };
  expected: Expected;
};

/** One small source map as multipart/form-data, as the CLI uploads it. */
const BOUNDARY = 'polyflow-matrix-boundary';
const MAP_UPLOAD = {
  contentType: `multipart/form-data; boundary=${BOUNDARY}`,
  payload: [
    `--${BOUNDARY}`,
    'Content-Disposition: form-data; name="file"; filename="~/assets/index.js.map"',
    'Content-Type: application/json',
    '',
    '{"version":3,"mappings":"AAAA","sources":["src/a.ts"],"names":[]}',
    `--${BOUNDARY}--`,
    '',
  ].join('\r\n'),
};

// Who may do what: reads for every member; changes for admins and the owner; transfer and delete for the
// owner; a non-member gets 404 as for a missing project; a read token 403 on every console route.
const READ: Expected = { owner: 200, admin: 200, viewer: 200, nonMember: 404, readToken: 403 };
const MANAGE: Expected = { owner: 200, admin: 200, viewer: 403, nonMember: 404, readToken: 403 };
const manage = (status: number): Expected => ({ ...MANAGE, owner: status, admin: status });
const OWN: Expected = { owner: 200, admin: 403, viewer: 403, nonMember: 404, readToken: 403 };

const P = '/api/v1/projects/:id';
const REST: RestCase[] = [
  {
    method: 'GET',
    route: '/api/v1/projects',
    url: () => '/api/v1/projects',
    expected: { ...READ, nonMember: 200 },
  },
  {
    method: 'POST',
    route: '/api/v1/projects',
    url: () => '/api/v1/projects',
    body: () => ({ name: 'Another' }),
    expected: { owner: 201, admin: 201, viewer: 201, nonMember: 201, readToken: 403 },
  },
  {
    method: 'PATCH',
    route: P,
    url: (t) => `/api/v1/projects/${t.projectId}`,
    body: () => ({ retentionDays: 30, timeZone: 'Europe/Berlin' }),
    expected: MANAGE,
  },
  {
    method: 'PUT',
    route: `${P}/ignored-wallet-codes`,
    url: (t) => `/api/v1/projects/${t.projectId}/ignored-wallet-codes`,
    body: () => ({ codes: [4001, 4100] }),
    expected: MANAGE,
  },
  {
    method: 'DELETE',
    route: P,
    url: (t) => `/api/v1/projects/${t.projectId}`,
    expected: { ...OWN, owner: 204 },
  },
  {
    method: 'POST',
    route: `${P}/api-key`,
    url: (t) => `/api/v1/projects/${t.projectId}/api-key`,
    expected: MANAGE,
  },
  {
    method: 'DELETE',
    route: `${P}/api-key`,
    url: (t) => `/api/v1/projects/${t.projectId}/api-key`,
    expected: MANAGE,
  },
  {
    method: 'PATCH',
    route: `${P}/domains/add`,
    url: (t) => `/api/v1/projects/${t.projectId}/domains/add`,
    body: () => ({ domain: 'new.example.com' }),
    expected: MANAGE,
  },
  {
    method: 'PATCH',
    route: `${P}/domains/delete`,
    url: (t) => `/api/v1/projects/${t.projectId}/domains/delete`,
    body: () => ({ domain: 'app.example.com' }),
    expected: MANAGE,
  },
  {
    method: 'POST',
    route: `${P}/forget`,
    url: (t) => `/api/v1/projects/${t.projectId}/forget`,
    body: () => ({ userId: 'someone' }),
    expected: MANAGE,
  },
  {
    method: 'POST',
    route: `${P}/read-tokens`,
    url: (t) => `/api/v1/projects/${t.projectId}/read-tokens`,
    body: () => ({ name: 'BI' }),
    expected: manage(201),
  },
  {
    method: 'GET',
    route: `${P}/read-tokens`,
    url: (t) => `/api/v1/projects/${t.projectId}/read-tokens`,
    expected: READ,
  },
  {
    method: 'DELETE',
    route: `${P}/read-tokens/:tokenId`,
    url: (t) => `/api/v1/projects/${t.projectId}/read-tokens/${t.ids.readToken}`,
    expected: manage(204),
  },
  {
    method: 'POST',
    route: `${P}/alert-rules`,
    url: (t) => `/api/v1/projects/${t.projectId}/alert-rules`,
    body: () => ({ name: 'Silence', kind: 'no_events', params: { hours: 2 }, channelIds: [] }),
    expected: manage(201),
  },
  {
    method: 'POST',
    route: `${P}/write-tokens`,
    url: (t) => `/api/v1/projects/${t.projectId}/write-tokens`,
    body: () => ({ name: 'CI' }),
    expected: manage(201),
  },
  {
    method: 'GET',
    route: `${P}/alert-rules`,
    url: (t) => `/api/v1/projects/${t.projectId}/alert-rules`,
    expected: READ,
  },
  {
    method: 'POST',
    route: `${P}/alert-rules/preview`,
    url: (t) => `/api/v1/projects/${t.projectId}/alert-rules/preview`,
    body: () => ({ kind: 'no_events', params: { hours: 2 } }),
    expected: READ,
  },
  {
    method: 'PATCH',
    route: `${P}/alert-rules/:ruleId`,
    url: (t) => `/api/v1/projects/${t.projectId}/alert-rules/${t.ids.alertRule}`,
    body: () => ({ paused: true }),
    expected: MANAGE,
  },
  {
    method: 'DELETE',
    route: `${P}/alert-rules/:ruleId`,
    url: (t) => `/api/v1/projects/${t.projectId}/alert-rules/${t.ids.alertRule}`,
    expected: manage(204),
  },
  {
    method: 'GET',
    route: `${P}/alert-rules/:ruleId/firings`,
    url: (t) => `/api/v1/projects/${t.projectId}/alert-rules/${t.ids.alertRule}/firings`,
    expected: READ,
  },
  {
    method: 'GET',
    route: `${P}/write-tokens`,
    url: (t) => `/api/v1/projects/${t.projectId}/write-tokens`,
    expected: READ,
  },
  {
    method: 'DELETE',
    route: `${P}/write-tokens/:tokenId`,
    url: (t) => `/api/v1/projects/${t.projectId}/write-tokens/${t.ids.writeToken}`,
    expected: manage(204),
  },
  {
    method: 'POST',
    route: `${P}/releases/:release/sourcemaps`,
    url: (t) => `/api/v1/projects/${t.projectId}/releases/1.0.0/sourcemaps`,
    raw: MAP_UPLOAD,
    expected: manage(201),
  },
  {
    method: 'GET',
    route: `${P}/releases/sourcemaps`,
    url: (t) => `/api/v1/projects/${t.projectId}/releases/sourcemaps`,
    expected: READ,
  },
  {
    method: 'DELETE',
    route: `${P}/releases/:release/sourcemaps`,
    url: (t) => `/api/v1/projects/${t.projectId}/releases/0.9.0/sourcemaps`,
    expected: manage(204),
  },
  {
    method: 'GET',
    route: `${P}/annotations`,
    url: (t) => `/api/v1/projects/${t.projectId}/annotations`,
    expected: READ,
  },
  {
    method: 'POST',
    route: `${P}/annotations`,
    url: (t) => `/api/v1/projects/${t.projectId}/annotations`,
    body: () => ({ text: 'Deployed v2', startDate: '2026-11-29' }),
    expected: manage(201),
  },
  {
    method: 'PATCH',
    route: `${P}/annotations/:annotationId`,
    url: (t) => `/api/v1/projects/${t.projectId}/annotations/${t.ids.annotation}`,
    body: () => ({ endDate: '2026-12-01' }),
    expected: MANAGE,
  },
  {
    method: 'DELETE',
    route: `${P}/annotations/:annotationId`,
    url: (t) => `/api/v1/projects/${t.projectId}/annotations/${t.ids.annotation}`,
    expected: manage(204),
  },
  {
    method: 'GET',
    route: `${P}/funnels`,
    url: (t) => `/api/v1/projects/${t.projectId}/funnels`,
    expected: { ...READ, readToken: 200 },
  },
  {
    method: 'GET',
    route: `${P}/funnels/:funnelId`,
    url: (t) => `/api/v1/projects/${t.projectId}/funnels/${t.ids.funnel}`,
    expected: { ...READ, readToken: 200 },
  },
  {
    method: 'POST',
    route: `${P}/funnels`,
    url: (t) => `/api/v1/projects/${t.projectId}/funnels`,
    body: () => ({
      name: 'Connect then swap',
      windowHours: 24,
      steps: [{ kind: 'wallet_connected' }, { kind: 'event', name: 'swap' }],
    }),
    expected: manage(201),
  },
  {
    method: 'PATCH',
    route: `${P}/funnels/:funnelId`,
    url: (t) => `/api/v1/projects/${t.projectId}/funnels/${t.ids.funnel}`,
    body: () => ({ windowHours: 48 }),
    expected: MANAGE,
  },
  {
    method: 'DELETE',
    route: `${P}/funnels/:funnelId`,
    url: (t) => `/api/v1/projects/${t.projectId}/funnels/${t.ids.funnel}`,
    expected: manage(204),
  },
  {
    method: 'GET',
    route: `${P}/goals`,
    url: (t) => `/api/v1/projects/${t.projectId}/goals`,
    // A read token reads its project's goals (as it reads their figures through GraphQL).
    expected: { ...READ, readToken: 200 },
  },
  {
    method: 'POST',
    route: `${P}/goals`,
    url: (t) => `/api/v1/projects/${t.projectId}/goals`,
    body: () => ({ name: 'Docs', kind: 'path', pathPattern: '/docs/**' }),
    expected: manage(201),
  },
  {
    method: 'PUT',
    route: `${P}/goals/:goalId`,
    url: (t) => `/api/v1/projects/${t.projectId}/goals/${t.ids.goal}`,
    body: () => ({ name: 'Signed up', kind: 'event', eventName: 'signup' }),
    expected: MANAGE,
  },
  {
    method: 'DELETE',
    route: `${P}/goals/:goalId`,
    url: (t) => `/api/v1/projects/${t.projectId}/goals/${t.ids.goal}`,
    expected: manage(204),
  },
  {
    method: 'GET',
    route: `${P}/integration`,
    url: (t) => `/api/v1/projects/${t.projectId}/integration`,
    expected: READ,
  },
  {
    method: 'GET',
    route: `${P}/export/events`,
    url: (t) => `/api/v1/projects/${t.projectId}/export/events?from=2020-01-01&to=2100-01-01`,
    // A read token keeps its rights: it exports its project.
    expected: { ...READ, readToken: 200 },
  },
  {
    method: 'GET',
    route: `${P}/transactions.csv`,
    url: (t) => `/api/v1/projects/${t.projectId}/transactions.csv?status=confirmed`,
    // The history's CSV is a reader's, as the dashboards and the raw export: a read token too.
    expected: { ...READ, readToken: 200 },
  },
  {
    method: 'GET',
    route: `${P}/members`,
    url: (t) => `/api/v1/projects/${t.projectId}/members`,
    expected: READ,
  },
  {
    method: 'POST',
    route: `${P}/invitations`,
    url: (t) => `/api/v1/projects/${t.projectId}/invitations`,
    body: () => ({ email: `new-${newId()}@example.com`, role: 'viewer' }),
    expected: manage(201),
  },
  {
    method: 'DELETE',
    route: `${P}/invitations/:invitationId`,
    url: (t) => `/api/v1/projects/${t.projectId}/invitations/${t.ids.invitation}`,
    expected: manage(204),
  },
  {
    method: 'POST',
    route: `${P}/invitations/:invitationId/resend`,
    url: (t) => `/api/v1/projects/${t.projectId}/invitations/${t.ids.invitation}/resend`,
    expected: MANAGE,
  },
  {
    method: 'PATCH',
    route: `${P}/members/:userId`,
    url: (t) => `/api/v1/projects/${t.projectId}/members/${t.ids.other}`,
    body: () => ({ role: 'admin' }),
    expected: MANAGE,
  },
  {
    method: 'DELETE',
    route: `${P}/members/:userId`,
    url: (t) => `/api/v1/projects/${t.projectId}/members/${t.ids.other}`,
    expected: manage(204),
  },
  {
    method: 'POST',
    route: `${P}/transfer`,
    url: (t) => `/api/v1/projects/${t.projectId}/transfer`,
    body: (t) => ({ userId: t.ids.admin }),
    expected: OWN,
  },
  {
    method: 'GET',
    route: `${P}/audit-log`,
    url: (t) => `/api/v1/projects/${t.projectId}/audit-log`,
    expected: MANAGE,
  },
  {
    method: 'GET',
    route: `${P}/report-subscriptions`,
    url: (t) => `/api/v1/projects/${t.projectId}/report-subscriptions`,
    expected: READ,
  },
  {
    method: 'PUT',
    route: `${P}/report-subscriptions/me`,
    url: (t) => `/api/v1/projects/${t.projectId}/report-subscriptions/me`,
    body: () => ({ weekly: true, monthly: false }),
    // Each member's own choice, whatever their role.
    expected: { ...READ },
  },
  {
    method: 'POST',
    route: `${P}/alert-channels`,
    url: (t) => `/api/v1/projects/${t.projectId}/alert-channels`,
    body: () => ({ type: 'webhook', name: 'Hook', url: 'https://example.com/hook' }),
    expected: manage(201),
  },
  {
    method: 'GET',
    route: `${P}/alert-channels`,
    url: (t) => `/api/v1/projects/${t.projectId}/alert-channels`,
    expected: READ,
  },
  {
    method: 'DELETE',
    route: `${P}/alert-channels/:channelId`,
    url: (t) => `/api/v1/projects/${t.projectId}/alert-channels/${t.ids.alertChannel}`,
    expected: manage(204),
  },
  {
    method: 'POST',
    route: `${P}/alert-channels/:channelId/test`,
    url: (t) => `/api/v1/projects/${t.projectId}/alert-channels/${t.ids.alertChannel}/test`,
    expected: manage(202),
  },
  {
    method: 'GET',
    route: `${P}/alert-channels/:channelId/deliveries`,
    url: (t) => `/api/v1/projects/${t.projectId}/alert-channels/${t.ids.alertChannel}/deliveries`,
    expected: READ,
  },
  {
    method: 'POST',
    route: '/api/v1/invitations/accept',
    url: () => '/api/v1/invitations/accept',
    body: (t) => ({ token: t.acceptToken }),
    // The invitation went to the non-member's address: only they can take it.
    expected: { owner: 403, admin: 403, viewer: 403, nonMember: 200, readToken: 403 },
  },
];

/** The live stream is a socket held open: checked over HTTP, its head's status only. */
const LIVE = { route: `${P}/live`, expected: READ };

/**
 * Routes of the API that concern no project's members: accounts, ingestion (an API key), health, the OpenAPI
 * file, a report's unsubscribe link (its signed token, no session: test/reports/subscriptions.test.ts).
 */
const NOT_PROJECT_ROUTES =
  /^\/api\/v1\/(health|register|login|logout|forgot-password|events|openapi\.json|reports\/unsubscribe)(\/|$)/;

/** `printRoutes` draws a tree; this reads it back into "METHOD /path" lines. */
function registeredRoutes(tree: string): string[] {
  const found: string[] = [];
  const stack: string[] = [];
  for (const line of tree.split('\n')) {
    const match = /^((?:│ {3}| {4})*)(?:├── |└── )(\S+)(?: \(([^)]*)\))?/.exec(line);
    if (!match) continue;
    const depth = (match[1]?.length ?? 0) / 4;
    stack.length = depth;
    stack.push(match[2] ?? '');
    for (const method of (match[3] ?? '').split(', ')) {
      if (method && method !== 'HEAD' && method !== 'OPTIONS') found.push(`${method} ${stack.join('')}`);
    }
  }
  return found;
}

describe.each(ENGINES)('role-by-route matrix on %s', (engine) => {
  const t = useTestApp(engine);
  const api = () => apiClient(t.app);
  const gql = () => graphqlClient(t.app);
  let users: Record<'admin' | 'viewer' | 'other' | 'nonMember', SeededUser>;
  let baseUrl: string;
  let liveServer: http.Server;

  beforeAll(async () => {
    const make = () => seed(t.services).user().verified().build();
    const [admin, viewer, other, nonMember] = await Promise.all([make(), make(), make(), make()]);
    users = { admin, viewer, other, nonMember } as typeof users;
    // The live stream needs a socket, but not `listen`: listening starts the leader's background jobs
    // (app.ts' onListen: reports, retention, alerts), whose writes to the account tables would land
    // between a refused call's before and after snapshots on a slow machine (the weekly report's claim).
    liveServer = http.createServer((request, response) => t.app.routing(request, response));
    await new Promise<void>((resolve) => liveServer.listen(0, '127.0.0.1', resolve));
    baseUrl = `http://127.0.0.1:${(liveServer.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    liveServer.closeAllConnections();
    await new Promise((resolve) => liveServer.close(resolve));
  });

  /**
   * The teams made by the test that just ran, removed after it: a refusal's snapshots read every account
   * table, which would otherwise grow by a team per test (about 300 per engine) and make each read slower.
   */
  const made: { ownerId: string; projectId: string }[] = [];
  async function remove(teams: { ownerId: string; projectId: string }[]): Promise<void> {
    const { db } = t.services;
    for (const { ownerId, projectId } of teams) {
      await db.deleteFrom('audit_log').where('project_id', '=', projectId).execute();
      // The owner's projects go with the account, and everything of a project with it (ON DELETE CASCADE).
      await db.deleteFrom('users').where('id', '=', ownerId).execute();
    }
  }
  afterEach(() => remove(made.splice(0)));

  /**
   * The team of a route's refused callers: made for the first of them and kept for the next ones of the same
   * route (a refusal writes nothing, which each of these tests checks against every account table, so the
   * team is still as it was made); an allowed call, which may change its team, gets a fresh one.
   */
  let refused: { route: RestCase; fixture: Team; made: { ownerId: string; projectId: string }[] } | undefined;
  async function teamForRefusal(route: RestCase): Promise<Team> {
    if (refused?.route === route) return refused.fixture;
    await remove(refused?.made ?? []);
    const fixture = await team();
    refused = { route, fixture, made: made.splice(0) };
    return fixture;
  }
  afterAll(() => remove(refused?.made ?? []));

  /**
   * A fresh project: a new owner, an admin, two viewers, a domain, a key, a read token, a release's maps, two
   * invitations.
   */
  async function team(): Promise<Team> {
    const { projects, readTokens, db, clock } = t.services;
    const owner = await seed(t.services).user().verified().build();
    const actor = { id: owner.id, email: owner.email, ip: '127.0.0.1' };
    const project = await projects.createProject(actor, 'Team project');
    made.push({ ownerId: owner.id, projectId: project.id });
    await projects.createApiKey(actor, project.id);
    await projects.addDomain(actor, project.id, 'app.example.com');
    const now = clock().toISOString();
    const member = (user: SeededUser, role: 'admin' | 'viewer') => ({
      project_id: project.id,
      user_id: user.id,
      role,
      joined_at: now,
    });
    await db
      .insertInto('project_members')
      .values([member(users.admin, 'admin'), member(users.viewer, 'viewer'), member(users.other, 'viewer')])
      .execute();
    const readToken = await readTokens.create(actor, project.id, 'Script');
    const annotation = newId();
    await db
      .insertInto('annotations')
      .values({
        id: annotation,
        project_id: project.id,
        text: 'Campaign',
        start_date: '2026-11-01',
        end_date: null,
        created_by: owner.email,
        created_at: now,
      })
      .execute();
    const funnel = newId();
    await db
      .insertInto('funnels')
      .values({
        id: funnel,
        project_id: project.id,
        name: 'Pricing',
        steps: JSON.stringify([{ kind: 'page', path: '/pricing' }, { kind: 'wallet_connected' }]),
        window_hours: 24,
        created_by: owner.email,
        created_at: now,
        updated_at: now,
      })
      .execute();
    const goal = newId();
    await db
      .insertInto('goals')
      .values({
        id: goal,
        project_id: project.id,
        name: 'Swap',
        kind: 'event',
        event_name: 'swap',
        property_key: null,
        property_value: null,
        path_pattern: null,
        created_by: owner.email,
        created_at: now,
      })
      .execute();
    const alertRule = await t.services.alertRules.create(actor, project.id, {
      name: 'Failing',
      kind: 'tx_fail_rate',
      params: { windowMinutes: 15, thresholdPercent: 5, minTransactions: 10 },
      channelIds: [],
    });
    const writeToken = { id: newId(), name: 'CI' };
    await db
      .insertInto('write_tokens')
      .values({
        ...writeToken,
        project_id: project.id,
        token_hash: sha256(newEmailToken()),
        created_by: owner.id,
        created_at: now,
      })
      .execute();
    // Release 0.9.0's maps (rows only: deleting them removes a file already gone without an error).
    await db
      .insertInto('sourcemap_releases')
      .values({ project_id: project.id, release: '0.9.0', bytes: 64, created_at: now, updated_at: now })
      .execute();
    await db
      .insertInto('sourcemap_files')
      .values({
        project_id: project.id,
        release: '0.9.0',
        url: '/assets/index.js',
        file: `${project.id}/${newId()}.map`,
        bytes: 64,
        uploaded_at: now,
      })
      .execute();
    // An email channel: a test notice to it sends nothing outside the test's SMTP sink.
    const alertChannel = await t.services.alertChannels.create(actor, project.id, {
      type: 'email',
      name: 'Owner',
      memberIds: [owner.id],
    });
    const invitation = (email: string, token: string) => ({
      id: newId(),
      project_id: project.id,
      email,
      role: 'viewer' as const,
      token_hash: sha256(token),
      invited_by: owner.id,
      created_at: now,
      expires_at: new Date(Date.parse(now) + 86_400_000).toISOString(),
    });
    const pending = invitation(`pending-${newId()}@example.com`, newEmailToken());
    const acceptToken = newEmailToken();
    await db
      .insertInto('project_invitations')
      .values([pending, invitation(users.nonMember.email, acceptToken)])
      .execute();
    return {
      projectId: project.id,
      tokens: {
        owner: owner.token,
        admin: users.admin.token,
        viewer: users.viewer.token,
        nonMember: users.nonMember.token,
        readToken: readToken.token,
      },
      ids: {
        admin: users.admin.id,
        other: users.other.id,
        invitation: pending.id,
        readToken: readToken.id,
        annotation,
        funnel,
        goal,
        alertRule: alertRule.id,
        writeToken: writeToken.id,
        alertChannel: alertChannel.id,
      },
      acceptToken,
    };
  }

  it('covers every REST route about projects and invitations', () => {
    const routes = registeredRoutes(t.app.printRoutes({ commonPrefix: false })).filter(
      (line) => line.includes(' /api/v1/') && !NOT_PROJECT_ROUTES.test(line.split(' ')[1] ?? ''),
    );
    const covered = [...REST.map((c) => `${c.method} ${c.route}`), `GET ${LIVE.route}`];
    expect(routes.sort()).toEqual(covered.sort());
  });

  describe.each(REST)('$method $route', (restCase) => {
    it.each(CALLERS)('as %s', async (caller) => {
      const expected = restCase.expected[caller];
      const fixture = expected >= 400 ? await teamForRefusal(restCase) : await team();
      // Every account table before a refusal, compared after it (an allowed call may write: not compared).
      const before = expected >= 400 ? await snapshot(t.services) : undefined;
      const response = await api().request(restCase.method, restCase.url(fixture), {
        token: fixture.tokens[caller],
        body: restCase.body?.(fixture),
        payload: restCase.raw?.payload,
        contentType: restCase.raw?.contentType,
      });
      expect(response.statusCode, response.body).toBe(expected);
      if (expected >= 400) {
        const errorCode = { 403: 'ACCESS_FORBIDDEN', 404: 'RESOURCE_NOT_FOUND' }[expected];
        expect(response.json()).toMatchObject({ errorCode, message: expect.any(String) });
        expect(await snapshot(t.services)).toBe(before);
      }
    });
  });

  it.each(CALLERS)(`GET ${LIVE.route} as %s`, async (caller) => {
    const fixture = await team();
    const status = await new Promise<number>((resolve, reject) => {
      const request = http.get(`${baseUrl}/api/v1/projects/${fixture.projectId}/live`, {
        headers: { authorization: `Bearer ${fixture.tokens[caller]}`, accept: 'text/event-stream' },
      });
      request.on('error', reject);
      request.on('response', (response) => {
        resolve(response.statusCode ?? 0);
        request.destroy();
      });
    });
    expect(status).toBe(LIVE.expected[caller]);
  });

  it('lists each project with the caller’s role', async () => {
    const fixture = await team();
    for (const [caller, role] of [
      ['owner', 'owner'],
      ['admin', 'admin'],
      ['viewer', 'viewer'],
    ] as const) {
      const listed = ProjectListSchema.parse(
        (await api().get('projects', { token: fixture.tokens[caller] })).json(),
      );
      expect(listed.projects.find((project) => project.id === fixture.projectId)?.role).toBe(role);
    }
    const stranger = ProjectListSchema.parse(
      (await api().get('projects', { token: fixture.tokens.nonMember })).json(),
    );
    expect(stranger.projects.map((project) => project.id)).not.toContain(fixture.projectId);
  });

  describe('GraphQL', () => {
    type Field = {
      name: string;
      args: { name: string; type: TypeRef }[];
      type: TypeRef;
    };
    type TypeRef = { kind: string; name: string | null; ofType: TypeRef | null };
    /** Operations authenticated by a dapp's API key (the published SDK), not by a console user. */
    const API_KEY_MUTATIONS = /^(create\w*Event|updateTxRequestEventTxStatus)$/;
    let operations: { kind: 'query' | 'mutation'; field: Field }[] = [];
    let enums = new Map<string, string>();
    /** Queries about no project (the schema's `health`): nothing to check. */
    let unscoped: string[] = [];
    /** Arguments a query needs beyond its required ones (one of `hash` or `id`). */
    const EXTRA_ARGS: Record<string, string> = { transaction: 'id: "tx-1"' };

    beforeAll(async () => {
      const ref = 'kind name ofType { kind name ofType { kind name ofType { kind name } } }';
      const answer = await gql()(
        `{ __schema {
          queryType { fields { name type { ${ref} } args { name type { ${ref} } } } }
          mutationType { fields { name type { ${ref} } args { name type { ${ref} } } } }
          types { kind name enumValues { name } }
        } }`,
        {},
      );
      const schema = answer.data?.__schema as {
        queryType: { fields: Field[] };
        mutationType: { fields: Field[] };
        types: { kind: string; name: string; enumValues: { name: string }[] | null }[];
      };
      const aboutAProject = (field: Field) => field.args.some((arg) => arg.name === 'projectId');
      unscoped = schema.queryType.fields.filter((field) => !aboutAProject(field)).map((field) => field.name);
      operations = [
        ...schema.queryType.fields.filter(aboutAProject).map((field) => ({ kind: 'query' as const, field })),
        ...schema.mutationType.fields
          .filter((field) => !API_KEY_MUTATIONS.test(field.name))
          .map((field) => ({ kind: 'mutation' as const, field })),
      ];
      enums = new Map(
        schema.types
          .filter((type) => type.kind === 'ENUM' && type.enumValues?.[0])
          .map((type) => [type.name, type.enumValues?.[0]?.name ?? '']),
      );
    });

    const named = (type: TypeRef): TypeRef => (type.ofType ? named(type.ofType) : type);

    /** The field with its required arguments (projectId: the project's), selecting __typename of objects. */
    function documentOf(kind: 'query' | 'mutation', field: Field): string {
      const args = field.args
        .filter((arg) => arg.type.kind === 'NON_NULL')
        .map((arg) => {
          if (arg.name === 'projectId') return 'projectId: $p';
          const type = named(arg.type);
          if (type.kind === 'ENUM') return `${arg.name}: ${enums.get(type.name ?? '')}`;
          if (type.name === 'Int' || type.name === 'Float') return `${arg.name}: 1`;
          if (type.name === 'Boolean') return `${arg.name}: false`;
          // Checked before the project by some queries: a well-formed one, so that access is what answers.
          if (arg.name === 'address') return `${arg.name}: "0x${'0'.repeat(39)}1"`;
          return `${arg.name}: "x-1"`;
        });
      const returned = named(field.type);
      const selection = returned.kind === 'OBJECT' ? ' { __typename }' : '';
      const extra = EXTRA_ARGS[field.name];
      if (extra) args.push(extra);
      return `${kind}($p: ID!) { ${field.name}(${args.join(', ')})${selection} }`;
    }

    /** What the role check said: passed (whatever the operation then answered), or which refusal. */
    function accessOf(answer: { errors?: { message: string; extensions?: Record<string, unknown> }[] }) {
      const error = answer.errors?.[0];
      if (!error) return 'allowed';
      if (error.extensions?.code === 'FORBIDDEN') return 'FORBIDDEN';
      if (error.extensions?.code === 'NOT_FOUND' && error.message === 'Project not found.')
        return 'NOT_FOUND';
      if (error.extensions?.code === 'BAD_AUTHENTICATION') return 'BAD_AUTHENTICATION';
      // An operation's own answer to placeholder arguments (no such incident, an invalid id): access passed.
      return 'allowed';
    }

    it('has operations to check (queries of analytics, acquisition, incidents; the status mutation)', () => {
      expect(unscoped).toEqual(['health']);
      expect(operations.filter((op) => op.kind === 'query').length).toBeGreaterThanOrEqual(20);
      expect(operations.filter((op) => op.kind === 'mutation').map((op) => op.field.name)).toEqual([
        'setIncidentStatus',
        'assignIncident',
      ]);
    });

    it.each(CALLERS)('every operation as %s', async (caller) => {
      const fixture = await team();
      const outcomes: Record<string, string> = {};
      const expected: Record<string, string> = {};
      for (const { kind, field } of operations) {
        const isChange = kind === 'mutation';
        // A viewer may take an incident for themselves (ADR 067): its own answer to the placeholder id.
        const viewerMayCall = field.name === 'assignIncident';
        expected[field.name] =
          caller === 'nonMember'
            ? 'NOT_FOUND'
            : isChange && (caller === 'readToken' || (caller === 'viewer' && !viewerMayCall))
              ? 'FORBIDDEN'
              : 'allowed';
        // Every account table before a refusal, compared after it (what an allowed call does is not compared).
        const before = expected[field.name] !== 'allowed' ? await snapshot(t.services) : undefined;
        const answer = await gql()(
          documentOf(kind, field),
          { p: fixture.projectId },
          {
            token: fixture.tokens[caller],
          },
        );
        outcomes[field.name] = accessOf(answer);
        if (expected[field.name] !== 'allowed') expect(await snapshot(t.services)).toBe(before);
      }
      expect(outcomes).toEqual(expected);
    });
  });
});
