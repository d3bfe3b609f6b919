import { describe, expect, it } from 'vitest';
import { dataOf, errorOf, graphqlClient } from './analytics/graphql-client.ts';
import { apiClient } from './support/client.ts';
import { useTestApp } from './support/harness.ts';
import { seed } from './support/seed.ts';

/**
 * `annotations(projectId, from, to)` on GraphQL (docs/timezone.md#annotations): every reader (members'
 * sessions, read tokens) gets the annotations whose days meet the range's local days; a token sees no
 * member's email; bad ranges are BAD_USER_INPUT; another user's project is absent.
 */
const QUERY = `query A($projectId: ID!, $from: DateTime, $to: DateTime) {
  annotations(projectId: $projectId, from: $from, to: $to) { id text startDate endDate createdBy createdAt }
}`;

describe('annotations on GraphQL', () => {
  const t = useTestApp('sqlite');
  const api = () => apiClient(t.app);

  async function berlinProjectWithNotes() {
    const { user, project } = await seed(t.services).user().verified().project('Notes');
    const zone = await api().patch(`projects/${project.id}`, {
      token: user.token,
      body: { timeZone: 'Europe/Berlin' },
    });
    expect(zone.statusCode).toBe(200);
    const post = async (body: unknown) => {
      const created = await api().post(`projects/${project.id}/annotations`, { token: user.token, body });
      expect(created.statusCode).toBe(201);
      return created.json().id as string;
    };
    const ids = {
      campaign: await post({ text: 'Campaign', startDate: '2026-03-27', endDate: '2026-03-28' }),
      deploy: await post({ text: 'Deployed v2', startDate: '2026-03-29' }),
      outage: await post({ text: 'Outage', startDate: '2026-04-05' }),
    };
    return { user, project, ids };
  }

  const ask = (token: string, variables: Record<string, unknown>) =>
    graphqlClient(t.app)(QUERY, variables, { token });
  const textsOf = (answer: Awaited<ReturnType<typeof ask>>) =>
    (dataOf(answer).annotations as { text: string }[]).map((annotation) => annotation.text);

  it('answers those meeting the local days of the range, by start date; all without a range', async () => {
    const { user, project } = await berlinProjectWithNotes();
    const all = dataOf(await ask(user.token, { projectId: project.id })).annotations as Record<
      string,
      unknown
    >[];
    expect(all.map((annotation) => annotation.text)).toEqual(['Campaign', 'Deployed v2', 'Outage']);
    expect(all[1]).toMatchObject({ startDate: '2026-03-29', endDate: null, createdBy: user.email });
    // 29 March in Berlin (23 hours: 2026-03-28T23:00Z to 2026-03-29T22:00Z): the campaign ended on the 28th.
    const day = { projectId: project.id, from: '2026-03-28T23:00:00Z', to: '2026-03-29T22:00:00Z' };
    expect(textsOf(await ask(user.token, day))).toEqual(['Deployed v2']);
    // One millisecond earlier is still 28 March there: the campaign's last day.
    expect(textsOf(await ask(user.token, { ...day, from: '2026-03-28T22:59:59.999Z' }))).toEqual([
      'Campaign',
      'Deployed v2',
    ]);
    // Open ends reach as far as any annotation.
    expect(textsOf(await ask(user.token, { projectId: project.id, from: '2026-03-30T00:00:00Z' }))).toEqual([
      'Outage',
    ]);
    expect(textsOf(await ask(user.token, { projectId: project.id, to: '2026-03-28T00:00:00Z' }))).toEqual([
      'Campaign',
    ]);
  });

  it('answers a read token of the project without the members’ emails', async () => {
    const { user, project } = await berlinProjectWithNotes();
    const created = await api().post(`projects/${project.id}/read-tokens`, {
      token: user.token,
      body: { name: 'BI' },
    });
    const token = created.json().token as string;
    const answer = dataOf(await ask(token, { projectId: project.id })).annotations as Record<
      string,
      unknown
    >[];
    expect(answer.map((annotation) => [annotation.text, annotation.createdBy])).toEqual([
      ['Campaign', null],
      ['Deployed v2', null],
      ['Outage', null],
    ]);
  });

  it('refuses bad ranges with BAD_USER_INPUT; another user’s project is not found', async () => {
    const { user, project } = await berlinProjectWithNotes();
    for (const range of [
      { from: 'yesterday' },
      { to: '2026-02-30' },
      { from: '2026-03-29T00:00:00Z', to: '2026-03-29T00:00:00Z' },
      { from: '2026-03-30T00:00:00Z', to: '2026-03-29T00:00:00Z' },
    ]) {
      const answer = await ask(user.token, { projectId: project.id, ...range });
      expect(errorOf(answer).code, JSON.stringify(range)).toBe('BAD_USER_INPUT');
    }
    const stranger = await seed(t.services).user().verified();
    const foreign = await ask(stranger.token, { projectId: project.id });
    expect(errorOf(foreign)).toEqual({ message: 'Project not found.', code: 'NOT_FOUND' });
    const anonymous = await graphqlClient(t.app)(QUERY, { projectId: project.id });
    expect(errorOf(anonymous).code).toBe('BAD_AUTHENTICATION');
  });
});
