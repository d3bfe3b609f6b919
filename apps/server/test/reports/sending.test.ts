import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newId } from '../../src/lib/ids.ts';
import { CLAIM_MS } from '../../src/modules/reports/service.ts';
import { startTestApp, type TestApp } from '../support/harness.ts';
import { type SeededUser, seed } from '../support/seed.ts';

/**
 * Once per member and period (docs/reports.md, ADR 063): two nodes sharing one PostgreSQL race to send the
 * same reports; a node that claimed a report and died leaves it to another once the claim runs out; a
 * report goes out only on the day after its period.
 */
const MONDAY = Date.parse('2026-11-23T06:00:00Z');
const WEEK_START = '2026-11-16T00:00:00.000Z';

describe('sending reports with two nodes on PostgreSQL', () => {
  let a: TestApp;
  let b: TestApp;
  let members: SeededUser[];
  let projectId: string;

  const setClock = (node: TestApp, ms: number) => node.clock.advance(ms - node.clock().getTime());

  beforeAll(async () => {
    a = await startTestApp('postgres');
    // The second node of the same deployment: the same accounts store, JWT secret and mail server.
    b = await startTestApp('postgres', {
      databaseUrl: a.config.databaseUrl,
      smtpUrl: a.mail.url,
      jwtSecret: a.config.jwtSecret,
    });
    const seeded = await seed(a.services).user().verified().project('Raced');
    projectId = seeded.project.id;
    const others = await Promise.all([1, 2, 3, 4].map(() => seed(a.services).user().verified().build()));
    await a.services.db
      .insertInto('project_members')
      .values(
        others.map((user) => ({
          project_id: projectId,
          user_id: user.id,
          role: 'viewer' as const,
          joined_at: new Date().toISOString(),
        })),
      )
      .execute();
    members = [seeded.user, ...others];
    for (const member of members) {
      await a.services.reports.updateMine(
        { id: member.id, email: member.email, ip: '127.0.0.1' },
        projectId,
        {
          weekly: true,
          monthly: false,
        },
      );
    }
  });

  afterAll(async () => {
    await b?.close();
    await a?.close();
  });

  const sends = () =>
    a.services.db.selectFrom('report_sends').selectAll().where('project_id', '=', projectId).execute();

  it('sends nothing on the Tuesday after the week: reports go out on the day after their period', async () => {
    setClock(a, MONDAY + 24 * 3_600_000);
    expect(await a.services.reports.sendDue()).toEqual([]);
    expect(await sends()).toEqual([]);
  });

  it('sends each member one report when both nodes run the pass at once, and a node that died mid-send hands over', async () => {
    // A third node claimed the last member's report and died before sending it.
    const last = members[members.length - 1] as SeededUser;
    await a.services.db
      .insertInto('report_sends')
      .values({
        id: newId(),
        project_id: projectId,
        user_id: last.id,
        kind: 'weekly',
        period_start: WEEK_START,
        state: 'claimed',
        claim_id: newId(),
        claimed_until: new Date(MONDAY + CLAIM_MS).toISOString(),
        sent_at: null,
      })
      .execute();
    setClock(a, MONDAY);
    setClock(b, MONDAY);
    await Promise.all([
      a.services.reports.sendDue(),
      b.services.reports.sendDue(),
      a.services.reports.sendDue(),
      b.services.reports.sendDue(),
    ]);
    await Promise.all([a.services.mail.flush(), b.services.mail.flush()]);
    for (const member of members.slice(0, -1)) {
      await a.mail.waitFor(member.email, { subject: /Weekly report for Raced/ });
    }
    // The dead node's claim holds until it runs out: nobody sends that report meanwhile.
    expect(a.mail.pendingFor(last.email)).toEqual([]);

    setClock(a, MONDAY + CLAIM_MS + 60_000);
    setClock(b, MONDAY + CLAIM_MS + 60_000);
    await Promise.all([a.services.reports.sendDue(), b.services.reports.sendDue()]);
    await Promise.all([a.services.mail.flush(), b.services.mail.flush()]);
    await a.mail.waitFor(last.email, { subject: /Weekly report for Raced/ });

    // Later passes (a restart, the next check) send nothing more.
    await Promise.all([a.services.reports.sendDue(), b.services.reports.sendDue()]);
    await Promise.all([a.services.mail.flush(), b.services.mail.flush()]);
    await new Promise((resolve) => setTimeout(resolve, 300));
    for (const member of members) {
      expect(
        a.mail.messages.filter((message) => message.to.includes(member.email.toLowerCase())),
      ).toHaveLength(1);
    }
    const rows = await sends();
    expect(rows).toHaveLength(members.length);
    expect(rows.every((row) => row.state === 'sent' && row.period_start === WEEK_START)).toBe(true);
    expect(b.mail.messages).toEqual([]);
  });

  it('sends a report again to nobody after a restart of a node', async () => {
    await b.close();
    b = await startTestApp('postgres', {
      databaseUrl: a.config.databaseUrl,
      smtpUrl: a.mail.url,
      jwtSecret: a.config.jwtSecret,
    });
    setClock(b, MONDAY + 2 * 3_600_000);
    const outcomes = await b.services.reports.sendDue();
    expect(outcomes).toEqual([expect.objectContaining({ sent: 0, alreadySent: members.length })]);
  });
});
