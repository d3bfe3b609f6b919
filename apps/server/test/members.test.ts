import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import {
  AuditLogSchema,
  CreatedInvitationSchema,
  MAX_INVITATION_EMAILS_PER_HOUR,
  MemberListSchema,
} from '@polyflow/contracts/members';
import { ProjectListSchema, ProjectSchema } from '@polyflow/contracts/projects';
import { describe, expect, inject, it } from 'vitest';
import { createDatabase } from '../src/db/database.ts';
import { migrateTo, migrateToLatest } from '../src/db/migrations.ts';
import { newEmailToken, newId, sha256 } from '../src/lib/ids.ts';
import { apiClient, errorOf } from './support/client.ts';
import { ENGINES, startTestApp, useTestApp } from './support/harness.ts';
import { createTestDatabase } from './support/postgres.ts';
import { addMember, type SeededUser, seed, snapshot } from './support/seed.ts';
import { codeFrom } from './support/smtp-sink.ts';

const DAY_MS = 86_400_000;

describe.each(ENGINES)('members and invitations on %s', (engine) => {
  const t = useTestApp(engine);
  const api = () => apiClient(t.app);

  async function ownedProject() {
    const seeded = await seed(t.services).user().verified().project('Team').apiKey();
    return { owner: seeded.user, project: seeded.project };
  }

  const invite = (token: string, projectId: string, body: unknown) =>
    api().post(`projects/${projectId}/invitations`, { token, body });

  /** Signs up with the email's address through the API and verifies it: the invitee's first session. */
  async function signUp(email: string): Promise<string> {
    expect((await api().post('register', { body: { email, password: 'correct horse 42' } })).statusCode).toBe(
      204,
    );
    const mail = await t.mail.waitFor(email, { subject: /Verify/ });
    const verified = await api().post('register/verify', { body: { token: codeFrom(mail) } });
    expect(verified.statusCode).toBe(200);
    return (verified.json() as { token: string }).token;
  }

  /** A member of the project with the given role, added directly. */
  async function addMember(projectId: string, role: 'admin' | 'viewer'): Promise<SeededUser> {
    const user = await seed(t.services).user().verified().build();
    await t.services.db
      .insertInto('project_members')
      .values({ project_id: projectId, user_id: user.id, role, joined_at: t.services.clock().toISOString() })
      .execute();
    return user;
  }

  it('invites someone without an account by email; they sign up, verify and accept once as that address', async () => {
    const { owner, project } = await ownedProject();
    const email = `colleague-${randomBytes(4).toString('hex')}@example.com`;
    const created = await invite(owner.token, project.id, {
      email: `  ${email.toUpperCase()} `,
      role: 'viewer',
    });
    expect(created.statusCode).toBe(201);
    const invitation = CreatedInvitationSchema.strict().parse(created.json());
    expect(invitation).toMatchObject({ email, role: 'viewer' });
    expect(Date.parse(invitation.expiresAt) - t.clock().getTime()).toBeGreaterThan(7 * DAY_MS - 60_000);

    const mail = await t.mail.waitFor(email, { subject: /invited to Team/ });
    expect(mail.text).toContain(`${owner.email} invited you`);
    const token = codeFrom(mail);
    expect(mail.text).toContain(`http://polyflow.test/invite?token=${token}`);
    // Stored hashed only.
    const rows = await t.services.db.selectFrom('project_invitations').selectAll().execute();
    expect(rows.find((row) => row.id === invitation.id)?.token_hash).toBe(sha256(token));
    expect(JSON.stringify(rows)).not.toContain(token);

    const listed = MemberListSchema.parse(
      (await api().get(`projects/${project.id}/members`, { token: owner.token })).json(),
    );
    expect(listed.members).toEqual([
      { userId: owner.id, email: owner.email, role: 'owner', joinedAt: expect.any(String) },
    ]);
    expect(listed.invitations).toEqual([
      {
        id: invitation.id,
        email,
        role: 'viewer',
        createdAt: expect.any(String),
        expiresAt: invitation.expiresAt,
      },
    ]);

    // Another account cannot take it, and nothing changes.
    const stranger = await seed(t.services).user().verified().build();
    const before = await snapshot(t.services);
    const foreign = await api().post('invitations/accept', { token: stranger.token, body: { token } });
    expect(foreign.statusCode).toBe(403);
    expect(errorOf(foreign).errorCode).toBe('ACCESS_FORBIDDEN');
    expect(await snapshot(t.services)).toBe(before);

    const session = await signUp(email);
    const accepted = await api().post('invitations/accept', { token: session, body: { token } });
    expect(accepted.statusCode).toBe(200);
    expect(ProjectSchema.parse(accepted.json())).toMatchObject({ id: project.id, role: 'viewer' });
    const again = await api().post('invitations/accept', { token: session, body: { token } });
    expect(again.statusCode).toBe(400);
    expect(errorOf(again).errorCode).toBe('INVITATION_INVALID');

    const projects = ProjectListSchema.parse((await api().get('projects', { token: session })).json());
    expect(projects.projects).toEqual([expect.objectContaining({ id: project.id, role: 'viewer' })]);
    const after = MemberListSchema.parse(
      (await api().get(`projects/${project.id}/members`, { token: session })).json(),
    );
    expect(after.members.map((member) => [member.email, member.role])).toEqual([
      [owner.email, 'owner'],
      [email, 'viewer'],
    ]);
    expect(after.invitations).toEqual([]);
    // Inviting a member again is a conflict.
    const duplicate = await invite(owner.token, project.id, { email, role: 'admin' });
    expect(duplicate.statusCode).toBe(409);
    expect(errorOf(duplicate).errorCode).toBe('MEMBER_ALREADY_EXISTS');
  });

  it('answers an invitation the same whether or not the address has an account', async () => {
    const { owner, project } = await ownedProject();
    const existing = await seed(t.services).user().verified().build();
    const withAccount = await invite(owner.token, project.id, { email: existing.email, role: 'viewer' });
    const without = await invite(owner.token, project.id, {
      email: `nobody-${newId()}@example.com`,
      role: 'viewer',
    });
    expect([withAccount.statusCode, without.statusCode]).toEqual([201, 201]);
    expect(Object.keys(withAccount.json()).sort()).toEqual(Object.keys(without.json()).sort());
    const mail = await t.mail.waitFor(existing.email, { subject: /invited/ });
    expect(mail.text).toContain('/invite?token=');
  });

  it('refuses a second pending invitation, expired, revoked and malformed tokens; resend replaces the link', async () => {
    const { owner, project } = await ownedProject();
    const user = await seed(t.services).user().verified().build();
    expect((await invite(owner.token, project.id, { email: user.email, role: 'admin' })).statusCode).toBe(
      201,
    );
    const first = codeFrom(await t.mail.waitFor(user.email, { subject: /invited/ }));
    const pending = await invite(owner.token, project.id, { email: user.email, role: 'viewer' });
    expect(pending.statusCode).toBe(409);
    expect(errorOf(pending).errorCode).toBe('INVITATION_ALREADY_PENDING');

    const [{ id }] = MemberListSchema.parse(
      (await api().get(`projects/${project.id}/members`, { token: owner.token })).json(),
    ).invitations as unknown as [{ id: string }];
    const resent = await api().post(`projects/${project.id}/invitations/${id}/resend`, {
      token: owner.token,
    });
    expect(resent.statusCode).toBe(200);
    const second = codeFrom(await t.mail.waitFor(user.email, { subject: /invited/ }));
    expect(second).not.toBe(first);
    const old = await api().post('invitations/accept', { token: user.token, body: { token: first } });
    expect(errorOf(old).errorCode).toBe('INVITATION_INVALID');

    // Expired: the link's 7 days are over (set in the row: the sessions would expire with the clock).
    await t.services.db
      .updateTable('project_invitations')
      .set({ expires_at: new Date(t.clock().getTime() - 1000).toISOString() })
      .where('id', '=', id)
      .execute();
    const expired = await api().post('invitations/accept', { token: user.token, body: { token: second } });
    expect(expired.statusCode).toBe(400);
    expect(errorOf(expired).errorCode).toBe('INVITATION_INVALID');
    // An expired invitation is no longer listed, and the address can be invited again.
    const list = MemberListSchema.parse(
      (await api().get(`projects/${project.id}/members`, { token: owner.token })).json(),
    );
    expect(list.invitations).toEqual([]);
    expect((await invite(owner.token, project.id, { email: user.email, role: 'viewer' })).statusCode).toBe(
      201,
    );
    const third = codeFrom(await t.mail.waitFor(user.email, { subject: /invited/ }));
    const [{ id: thirdId }] = MemberListSchema.parse(
      (await api().get(`projects/${project.id}/members`, { token: owner.token })).json(),
    ).invitations as unknown as [{ id: string }];
    expect(
      (await api().delete(`projects/${project.id}/invitations/${thirdId}`, { token: owner.token }))
        .statusCode,
    ).toBe(204);
    const revoked = await api().post('invitations/accept', { token: user.token, body: { token: third } });
    expect(errorOf(revoked).errorCode).toBe('INVITATION_INVALID');
    expect(
      (await api().delete(`projects/${project.id}/invitations/${thirdId}`, { token: owner.token }))
        .statusCode,
    ).toBe(404);

    for (const token of ['', 'not a token!', 'x'.repeat(600), 42]) {
      const malformed = await api().post('invitations/accept', { token: user.token, body: { token } });
      expect(malformed.statusCode).toBe(400);
      expect(errorOf(malformed).errorCode).toBe('INVALID_REQUEST_BODY');
    }
  });

  it('refuses bad input with 4xx and writes nothing', async () => {
    const { owner, project } = await ownedProject();
    const viewer = await addMember(project.id, 'viewer');
    const before = await snapshot(t.services);
    const cases: [string, () => ReturnType<ReturnType<typeof apiClient>['get']>, number][] = [
      ['not an email', () => invite(owner.token, project.id, { email: 'nope', role: 'viewer' }), 400],
      ['owner role', () => invite(owner.token, project.id, { email: 'a@example.com', role: 'owner' }), 400],
      ['unknown role', () => invite(owner.token, project.id, { email: 'a@example.com', role: 'root' }), 400],
      [
        'extra field',
        () => invite(owner.token, project.id, { email: 'a@example.com', role: 'viewer', x: 1 }),
        400,
      ],
      [
        'unknown project',
        () => invite(owner.token, newId(), { email: 'a@example.com', role: 'viewer' }),
        404,
      ],
      [
        'malformed project',
        () => invite(owner.token, 'nope', { email: 'a@example.com', role: 'viewer' }),
        404,
      ],
      [
        'inviting as a viewer',
        () => invite(viewer.token, project.id, { email: 'a@example.com', role: 'viewer' }),
        403,
      ],
      [
        'unknown member',
        () =>
          api().patch(`projects/${project.id}/members/${newId()}`, {
            token: owner.token,
            body: { role: 'admin' },
          }),
        404,
      ],
      [
        'malformed member',
        () =>
          api().patch(`projects/${project.id}/members/x`, { token: owner.token, body: { role: 'admin' } }),
        404,
      ],
      [
        'role owner by PATCH',
        () =>
          api().patch(`projects/${project.id}/members/${viewer.id}`, {
            token: owner.token,
            body: { role: 'owner' },
          }),
        400,
      ],
      [
        'unknown invitation',
        () => api().delete(`projects/${project.id}/invitations/${newId()}`, { token: owner.token }),
        404,
      ],
      [
        'resend unknown',
        () => api().post(`projects/${project.id}/invitations/nope/resend`, { token: owner.token }),
        404,
      ],
      [
        'owner leaving',
        () => api().delete(`projects/${project.id}/members/${owner.id}`, { token: owner.token }),
        400,
      ],
      [
        "owner's own role",
        () =>
          api().patch(`projects/${project.id}/members/${owner.id}`, {
            token: owner.token,
            body: { role: 'admin' },
          }),
        400,
      ],
      [
        'transfer to a viewer',
        () =>
          api().post(`projects/${project.id}/transfer`, { token: owner.token, body: { userId: viewer.id } }),
        400,
      ],
      [
        'transfer to a non-member',
        () =>
          api().post(`projects/${project.id}/transfer`, { token: owner.token, body: { userId: newId() } }),
        404,
      ],
      [
        'transfer to oneself',
        () =>
          api().post(`projects/${project.id}/transfer`, { token: owner.token, body: { userId: owner.id } }),
        400,
      ],
      [
        'transfer, bad id',
        () => api().post(`projects/${project.id}/transfer`, { token: owner.token, body: { userId: 'x' } }),
        400,
      ],
    ];
    for (const [label, send, status] of cases) {
      const response = await send();
      expect(response.statusCode, label).toBe(status);
      expect(errorOf(response).message, label).toBeTruthy();
    }
    expect(await snapshot(t.services)).toBe(before);
  });

  it('keeps the owner: an admin can neither remove nor demote them; roles change; members leave', async () => {
    const { owner, project } = await ownedProject();
    const admin = await addMember(project.id, 'admin');
    const viewer = await addMember(project.id, 'viewer');
    const before = await snapshot(t.services);
    const demote = await api().patch(`projects/${project.id}/members/${owner.id}`, {
      token: admin.token,
      body: { role: 'viewer' },
    });
    expect(demote.statusCode).toBe(403);
    const remove = await api().delete(`projects/${project.id}/members/${owner.id}`, { token: admin.token });
    expect(remove.statusCode).toBe(403);
    expect(await snapshot(t.services)).toBe(before);

    const promoted = await api().patch(`projects/${project.id}/members/${viewer.id}`, {
      token: admin.token,
      body: { role: 'admin' },
    });
    expect(promoted.statusCode).toBe(200);
    expect(promoted.json()).toMatchObject({ userId: viewer.id, role: 'admin' });
    // Leaving: any member but the owner, then the project looks absent to them.
    expect(
      (await api().delete(`projects/${project.id}/members/${viewer.id}`, { token: viewer.token })).statusCode,
    ).toBe(204);
    expect((await api().get(`projects/${project.id}/members`, { token: viewer.token })).statusCode).toBe(404);
  });

  it('transfers ownership to an admin: the old owner becomes an admin and read tokens keep working', async () => {
    const { owner, project } = await ownedProject();
    const admin = await addMember(project.id, 'admin');
    const created = await api().post(`projects/${project.id}/read-tokens`, {
      token: owner.token,
      body: { name: 'BI' },
    });
    const readToken = (created.json() as { token: string }).token;
    const transferred = await api().post(`projects/${project.id}/transfer`, {
      token: owner.token,
      body: { userId: admin.id },
    });
    expect(transferred.statusCode).toBe(200);
    expect(transferred.json()).toMatchObject({ id: project.id, ownerId: admin.id, role: 'admin' });
    const list = MemberListSchema.parse(
      (await api().get(`projects/${project.id}/members`, { token: admin.token })).json(),
    );
    expect(Object.fromEntries(list.members.map((member) => [member.userId, member.role]))).toEqual({
      [admin.id]: 'owner',
      [owner.id]: 'admin',
    });
    // The old owner can no longer delete; the new one can transfer back.
    expect((await api().delete(`projects/${project.id}`, { token: owner.token })).statusCode).toBe(403);
    const exported = await api().get(`projects/${project.id}/export/events?from=2020-01-01&to=2100-01-01`, {
      token: readToken,
    });
    expect(exported.statusCode).toBe(200);
  });

  it('caps members at 50 and pending invitations at 50', async () => {
    const { owner, project } = await ownedProject();
    const { db, clock } = t.services;
    const now = clock().toISOString();
    const users = Array.from({ length: 49 }, () => ({
      id: newId(),
      email: `member-${newId()}@example.com`,
      password_hash: 'x',
      verified_at: now,
      password_changed_at: now,
      session_version: 0,
      created_at: now,
    }));
    await db.insertInto('users').values(users).execute();
    await db
      .insertInto('project_members')
      .values(
        users.map((user) => ({
          project_id: project.id,
          user_id: user.id,
          role: 'viewer' as const,
          joined_at: now,
        })),
      )
      .execute();
    const before = await snapshot(t.services);
    const full = await invite(owner.token, project.id, {
      email: `one-more-${newId()}@example.com`,
      role: 'viewer',
    });
    expect(full.statusCode).toBe(400);
    expect(errorOf(full).message).toContain('at most 50 members');
    expect(await snapshot(t.services)).toBe(before);

    const other = await ownedProject();
    await db
      .insertInto('project_invitations')
      .values(
        Array.from({ length: 50 }, () => ({
          id: newId(),
          project_id: other.project.id,
          email: `pending-${newId()}@example.com`,
          role: 'viewer' as const,
          token_hash: sha256(newEmailToken()),
          invited_by: other.owner.id,
          created_at: now,
          expires_at: new Date(Date.parse(now) + DAY_MS).toISOString(),
        })),
      )
      .execute();
    const tooMany = await invite(other.owner.token, other.project.id, {
      email: `one-more-${newId()}@example.com`,
      role: 'viewer',
    });
    expect(tooMany.statusCode).toBe(400);
    expect(errorOf(tooMany).message).toContain('at most 50 pending invitations');
  });

  it(`sends at most ${MAX_INVITATION_EMAILS_PER_HOUR} invitation emails per project and hour`, async () => {
    const { owner, project } = await ownedProject();
    for (let i = 0; i < MAX_INVITATION_EMAILS_PER_HOUR; i++) {
      const sent = await invite(owner.token, project.id, {
        email: `rate-${i}-${newId()}@example.com`,
        role: 'viewer',
      });
      expect(sent.statusCode).toBe(201);
    }
    const before = await snapshot(t.services);
    const limited = await invite(owner.token, project.id, {
      email: `rate-x-${newId()}@example.com`,
      role: 'viewer',
    });
    expect(limited.statusCode).toBe(429);
    expect(errorOf(limited).errorCode).toBe('RATE_LIMITED');
    expect(limited.headers['retry-after']).toBeDefined();
    expect(await snapshot(t.services)).toBe(before);
    t.clock.advance(61 * 60_000);
    try {
      const later = await invite(owner.token, project.id, {
        email: `rate-y-${newId()}@example.com`,
        role: 'viewer',
      });
      expect(later.statusCode).toBe(201);
    } finally {
      t.clock.reset();
    }
  });

  it('records changes in the audit log with who, what and the client address; pages; CSV; a year kept', async () => {
    const { owner, project } = await ownedProject();
    const viewer = await addMember(project.id, 'viewer');
    const headers = { 'x-forwarded-for': '203.0.113.9' };
    await api().patch(`projects/${project.id}/domains/add`, {
      token: owner.token,
      body: { domain: 'shop.example' },
      headers,
    });
    await api().patch(`projects/${project.id}`, { token: owner.token, body: { retentionDays: 90 } });
    await api().patch(`projects/${project.id}/members/${viewer.id}`, {
      token: owner.token,
      body: { role: 'admin' },
    });

    const page1 = AuditLogSchema.parse(
      (await api().get(`projects/${project.id}/audit-log?limit=2`, { token: owner.token })).json(),
    );
    expect(page1.entries.map((entry) => entry.action)).toEqual(['member.role', 'retention.set']);
    expect(page1.entries[0]).toMatchObject({
      actor: { userId: owner.id, email: owner.email },
      target: viewer.email,
      details: { from: 'viewer', to: 'admin' },
      // Without TRUST_PROXY the forwarded header is ignored: the socket's address is recorded.
      ip: '127.0.0.1',
    });
    expect(page1.nextBefore).toEqual(expect.any(String));
    const page2 = AuditLogSchema.parse(
      (
        await api().get(`projects/${project.id}/audit-log?limit=2&before=${page1.nextBefore}`, {
          token: owner.token,
        })
      ).json(),
    );
    // Then the domain added here and the seeded project's key, and last its creation.
    expect(page2.entries.map((entry) => entry.action)).toEqual(['domain.add', 'api_key.create']);
    const page3 = AuditLogSchema.parse(
      (
        await api().get(`projects/${project.id}/audit-log?limit=2&before=${page2.nextBefore}`, {
          token: owner.token,
        })
      ).json(),
    );
    expect(page3).toEqual({
      entries: [expect.objectContaining({ action: 'project.create' })],
      nextBefore: null,
    });

    for (const query of [
      'limit=0',
      'limit=201',
      'limit=x',
      'before=!!',
      `before=${Buffer.from('x').toString('base64url')}`,
      'format=xml',
      'other=1',
    ]) {
      const bad = await api().get(`projects/${project.id}/audit-log?${query}`, { token: owner.token });
      expect(bad.statusCode, query).toBe(400);
      expect(errorOf(bad).errorCode, query).toMatch(/^INVALID_REQUEST/);
    }

    const csv = await api().get(`projects/${project.id}/audit-log?format=csv`, { token: owner.token });
    expect(csv.statusCode).toBe(200);
    expect(csv.headers['content-type']).toBe('text/csv; charset=utf-8');
    const lines = csv.body.trim().split('\r\n');
    expect(lines[0]).toBe('at,actor_email,actor_user_id,action,target,details,ip');
    expect(lines).toHaveLength(6);
    expect(lines[1]).toContain('"member.role"');
    expect(lines[1]).toContain(`"${viewer.email}"`);
    // A spreadsheet formula in a field is written as text.
    await api().post(`projects/${project.id}/read-tokens`, {
      token: owner.token,
      body: { name: '=HYPERLINK("x")' },
    });
    const withFormula = await api().get(`projects/${project.id}/audit-log?format=csv`, {
      token: owner.token,
    });
    expect(withFormula.body.split('\r\n')[1]).toContain(`"'=HYPERLINK(""x"")"`);

    // A year on, the hourly pass deletes what is older.
    t.clock.advance(366 * DAY_MS);
    try {
      expect(await t.services.auditLog.purgeExpired()).toBeGreaterThanOrEqual(6);
    } finally {
      t.clock.reset();
    }
    const emptied = AuditLogSchema.parse(
      (await api().get(`projects/${project.id}/audit-log`, { token: owner.token })).json(),
    );
    expect(emptied.entries).toEqual([]);
  });
});

describe('members across nodes and the migration', () => {
  it('refuses a removed member on another node at their next request (PostgreSQL, two nodes)', async () => {
    const first = await startTestApp('postgres');
    const second = await startTestApp('postgres', {
      databaseUrl: first.config.databaseUrl,
      jwtSecret: first.config.jwtSecret,
    });
    try {
      const { user: owner, project } = await seed(first.services).user().verified().project('Shared');
      const member = await seed(first.services).user().verified().build();
      await addMember(first.services, project.id, member.id, 'admin');
      const onSecond = () =>
        apiClient(second.app).get(`projects/${project.id}/members`, { token: member.token });
      expect((await onSecond()).statusCode).toBe(200);
      const removed = await apiClient(first.app).delete(`projects/${project.id}/members/${member.id}`, {
        token: owner.token,
      });
      expect(removed.statusCode).toBe(204);
      const refused = await onSecond();
      expect(refused.statusCode).toBe(404);
      expect(errorOf(refused).errorCode).toBe('RESOURCE_NOT_FOUND');
    } finally {
      await second.close();
      await first.close();
    }
  });

  it.each(ENGINES)('makes every existing owner an owner member when migrating (%s)', async (engine) => {
    const dataDir = mkdtempSync(path.join(os.tmpdir(), 'polyflow-migration-'));
    const databaseUrl =
      engine === 'postgres'
        ? await createTestDatabase(inject('postgresAdminUrl'), `pf_${randomBytes(6).toString('hex')}`)
        : undefined;
    const { db } = await createDatabase({ databaseUrl, dataDir });
    try {
      await migrateTo(db, '006_retention_and_read_tokens');
      const now = new Date().toISOString();
      const userId = newId();
      await db
        .insertInto('users')
        .values({
          id: userId,
          email: 'old@example.com',
          password_hash: 'x',
          verified_at: now,
          password_changed_at: now,
          session_version: 0,
          created_at: now,
        })
        .execute();
      const projectIds = [newId(), newId()];
      await db
        .insertInto('projects')
        .values(
          // The projects table as migration 006 left it (no time_zone yet).
          projectIds.map((id) => ({
            id,
            owner_id: userId,
            name: 'Old',
            api_key: null,
            created_at: now,
            retention_days: null,
          })) as never,
        )
        .execute();
      await migrateToLatest(db);
      const members = await db.selectFrom('project_members').selectAll().orderBy('project_id').execute();
      expect(members).toEqual(
        [...projectIds]
          .sort()
          .map((id) => ({ project_id: id, user_id: userId, role: 'owner', joined_at: now })),
      );
    } finally {
      await db.destroy();
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
});
