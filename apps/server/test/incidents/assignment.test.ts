import { IncidentRowSchema } from '@polyflow/contracts/incidents';
import { beforeAll, describe, expect, it } from 'vitest';
import { incidentIdOf } from '../../src/modules/incidents/fingerprint.ts';
import { dataOf, errorOf, graphqlClient } from '../analytics/graphql-client.ts';
import { apiClient } from '../support/client.ts';
import { storeRows } from '../support/event-stores.ts';
import { ENGINES_BESIDE_EVENT_STORE, useTestApp } from '../support/harness.ts';
import { type SeededUser, seed, snapshot } from '../support/seed.ts';
import { incidentEvents } from './fixture.ts';
import { FINGERPRINTS } from './setup.ts';

/**
 * Incident assignment (ADR 067, docs/acquisition-and-incidents.md "Assignment"): to current members only,
 * admins and the owner assign anyone, a viewer takes or gives up only their own; the list filters by
 * assignee, "me" and "none"; every change is in the audit log; a member who leaves loses their
 * assignments. On SQLite and PostgreSQL (the cascade on the membership is the stores' own).
 */

const ASSIGN = `mutation Assign($projectId: ID!, $id: ID!, $userId: ID) {
  assignIncident(projectId: $projectId, id: $id, userId: $userId) { id status assignee { userId email assignedAt } }
}`;
const LIST = `query List($projectId: ID!, $assignee: String) {
  incidents(projectId: $projectId, from: "2024-03-01T00:00:00Z", to: "2024-03-08T00:00:00Z", assignee: $assignee) {
    totalIncidents matching rows { id assignee { userId email } }
  }
}`;
const DETAIL = `query Detail($projectId: ID!, $id: ID!) {
  incident(projectId: $projectId, id: $id) { id assignee { userId email } }
}`;

describe.each(ENGINES_BESIDE_EVENT_STORE)('incident assignment on %s', (engine) => {
  const t = useTestApp(engine);
  let owner: SeededUser;
  let admin: SeededUser;
  let viewer: SeededUser;
  let other: SeededUser;
  let stranger: SeededUser;
  let projectId: string;
  let readToken: string;
  const ids = { A: '', B: '', C: '', D: '', E: '' };

  const gql = (query: string, variables: Record<string, unknown>, token: string) =>
    graphqlClient(t.app)(query, { projectId, ...variables }, { token });
  const assign = (id: string, userId: string | null, token = owner.token) =>
    gql(ASSIGN, { id, userId }, token);
  const listed = async (assignee: string | null, token = owner.token) => {
    const list = dataOf(await gql(LIST, { assignee }, token)).incidents as {
      matching: number;
      totalIncidents: number;
      rows: { id: string; assignee: { userId: string; email: string } | null }[];
    };
    return list;
  };

  beforeAll(async () => {
    const seeded = await seed(t.services).user().verified().project('Triage');
    owner = seeded.user;
    projectId = seeded.project.id;
    const make = () => seed(t.services).user().verified().build();
    [admin, viewer, other, stranger] = await Promise.all([make(), make(), make(), make()]);
    const now = new Date().toISOString();
    await t.services.db
      .insertInto('project_members')
      .values([
        { project_id: projectId, user_id: admin.id, role: 'admin', joined_at: now },
        { project_id: projectId, user_id: viewer.id, role: 'viewer', joined_at: now },
        { project_id: projectId, user_id: other.id, role: 'viewer', joined_at: now },
      ])
      .execute();
    await storeRows(t.services.eventStore, incidentEvents(projectId));
    for (const name of Object.keys(ids) as (keyof typeof ids)[]) {
      ids[name] = incidentIdOf(projectId, FINGERPRINTS[name]);
    }
    const actor = { id: owner.id, email: owner.email, ip: '127.0.0.1' };
    readToken = (await t.services.readTokens.create(actor, projectId, 'Script')).token;
  });

  it('assigns to a member, shows it on the list and the detail, filters by assignee, me and none', async () => {
    const answer = await assign(ids.A, viewer.id);
    const row = IncidentRowSchema.pick({ id: true, assignee: true }).parse(dataOf(answer).assignIncident);
    expect(row.assignee).toMatchObject({ userId: viewer.id, email: viewer.email });
    expect(Date.parse(row.assignee?.assignedAt ?? '')).not.toBeNaN();
    expect(dataOf(await assign(ids.B, admin.id, admin.token))).toBeTruthy();

    const all = await listed(null);
    expect(all.rows.find((r) => r.id === ids.A)?.assignee).toEqual({
      userId: viewer.id,
      email: viewer.email,
    });
    expect(all.rows.find((r) => r.id === ids.C)?.assignee).toBeNull();
    const detail = dataOf(await gql(DETAIL, { id: ids.A }, owner.token)).incident as { assignee: unknown };
    expect(detail.assignee).toEqual({ userId: viewer.id, email: viewer.email });

    const mine = await listed('me', viewer.token);
    expect(mine.rows.map((r) => r.id)).toEqual([ids.A]);
    expect(mine.matching).toBe(1);
    // The total ignores the filter, as it ignores search and severity.
    expect(mine.totalIncidents).toBe(all.totalIncidents);
    expect((await listed(admin.id)).rows.map((r) => r.id)).toEqual([ids.B]);
    expect((await listed('me')).rows).toEqual([]);
    const unassigned = await listed('none');
    expect(unassigned.rows.map((r) => r.id).sort()).toEqual(
      all.rows
        .map((r) => r.id)
        .filter((id) => id !== ids.A && id !== ids.B)
        .sort(),
    );
  });

  it('refuses a non-member, an unknown incident, a stranger and "me" from a read token; nothing written', async () => {
    const before = await snapshot(t.services);
    const notMember = errorOf(await assign(ids.C, stranger.id));
    expect(notMember.code).toBe('BAD_USER_INPUT');
    expect((await assign(ids.C, 'not-an-id')).errors?.[0]?.extensions).toMatchObject({
      errorCode: 'ASSIGNEE_NOT_MEMBER',
    });
    expect(errorOf(await assign(`inc_${'0'.repeat(24)}`, viewer.id)).code).toBe('NOT_FOUND');
    expect(errorOf(await assign('inc_bad', viewer.id)).code).toBe('BAD_USER_INPUT');
    expect(errorOf(await assign(ids.C, stranger.id, stranger.token))).toMatchObject({ code: 'NOT_FOUND' });
    expect(errorOf(await assign(ids.C, owner.id, readToken)).code).toBe('FORBIDDEN');
    expect(errorOf(await gql(LIST, { assignee: 'me' }, readToken)).code).toBe('BAD_USER_INPUT');
    expect(await snapshot(t.services)).toBe(before);
    // A read token filters by a member's id like anyone.
    expect((await listed(viewer.id, readToken)).rows.map((r) => r.id)).toContain(ids.A);
  });

  it('refuses an assignee filter that is no user id, "me" or "none" with 400, as other invalid arguments', async () => {
    for (const assignee of ['not-a-uuid', '\u0000garbage', `${viewer.id}0`, 'nobody']) {
      const answer = await gql(LIST, { assignee }, owner.token);
      expect([answer.status, answer.data?.incidents ?? null, errorOf(answer)]).toEqual([
        400,
        null,
        { code: 'BAD_USER_INPUT', message: 'Invalid assignee: a member\'s user id, "me" or "none".' },
      ]);
    }
    // A well-formed id, with blanks around or in capitals, is still a filter; a blank one is none.
    expect((await listed(` ${viewer.id.toUpperCase()} `)).rows.map((r) => r.id)).toEqual([ids.A]);
    expect((await listed('  ')).matching).toBe((await listed(null)).matching);
  });

  it('a viewer takes an unassigned incident and gives up their own, and nothing else', async () => {
    const before = await snapshot(t.services);
    // Someone else's incident, assigning another member, unassigning someone else: refused.
    expect(errorOf(await assign(ids.B, viewer.id, viewer.token)).code).toBe('FORBIDDEN');
    expect(errorOf(await assign(ids.C, other.id, viewer.token)).code).toBe('FORBIDDEN');
    expect(errorOf(await assign(ids.B, null, viewer.token)).code).toBe('FORBIDDEN');
    expect(await snapshot(t.services)).toBe(before);

    const taken = dataOf(await assign(ids.C, viewer.id, viewer.token)).assignIncident as {
      assignee: { userId: string };
    };
    expect(taken.assignee.userId).toBe(viewer.id);
    const released = dataOf(await assign(ids.C, null, viewer.token)).assignIncident as { assignee: null };
    expect(released.assignee).toBeNull();
  });

  it('records every change in the audit log (from and to), and nothing for a repeat', async () => {
    await assign(ids.D, other.id);
    await assign(ids.D, other.id);
    await assign(ids.D, admin.id);
    await assign(ids.D, null);
    const response = await apiClient(t.app).get(`projects/${projectId}/audit-log?limit=200`, {
      token: owner.token,
    });
    const entries = (
      response.json() as {
        entries: { action: string; target: string; details: unknown; actor: { email: string } }[];
      }
    ).entries.filter((entry) => entry.action === 'incident.assign' && entry.target === ids.D);
    expect(entries.map((entry) => entry.details)).toEqual([
      { from: admin.email, to: null },
      { from: other.email, to: admin.email },
      { from: null, to: other.email },
    ]);
    expect(entries[0]?.actor.email).toBe(owner.email);
  });

  it('a member who leaves loses their assignments; the incidents become unassigned', async () => {
    await assign(ids.E, other.id);
    expect((await listed(other.id)).rows.map((r) => r.id)).toEqual([ids.E]);
    const left = await apiClient(t.app).delete(`projects/${projectId}/members/${other.id}`, {
      token: other.token,
    });
    expect(left.statusCode, left.body).toBe(204);
    expect((await listed(other.id)).rows).toEqual([]);
    const detail = dataOf(await gql(DETAIL, { id: ids.E }, owner.token)).incident as { assignee: unknown };
    expect(detail.assignee).toBeNull();
    // And they can no longer be assigned.
    expect(errorOf(await assign(ids.E, other.id)).code).toBe('BAD_USER_INPUT');
  });
});
