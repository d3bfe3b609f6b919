import { describe, expect, it } from 'vitest';
import { pageView, postBatch, storedEvents } from './ingestion/support.ts';
import { apiClient, errorOf } from './support/client.ts';
import { useTestApp } from './support/harness.ts';
import { seed } from './support/seed.ts';

/** Issue 11, items 1 and 4: text no store can hold is refused with a 400 naming it, never stored or rewritten. */
describe('text the stores cannot hold', () => {
  const t = useTestApp('sqlite');

  it('refuses an SDK batch naming the event and field, and ingestion goes on for everyone', async () => {
    const { project } = await seed(t.services).user().verified().project().apiKey().domain('app.example.com');
    const apiKey = project.apiKey as string;
    const cases = [
      [{ userId: 'a\ud800b' }, 'event 1, field "userId"'],
      [{ sessionId: 'session\u0000one' }, 'event 1, field "sessionId"'],
      [{ path: '/swap\u0085' }, 'event 1, field "path"'],
    ] as const;
    for (const [override, named] of cases) {
      const response = await postBatch(t.app, { apiKey, events: [pageView(), pageView(override)] });
      expect(response.statusCode).toBe(400);
      expect(errorOf(response).message).toContain(named);
      expect(errorOf(response).message).toContain('control characters or unpaired UTF-16 surrogates');
    }
    // A stack keeps its line breaks; an emoji is a pair, not a lone surrogate.
    const fine = pageView({ userId: 'wallet 😀' });
    const error = {
      ...pageView(),
      type: 'error',
      source: 'window',
      message: 'boom',
      stack: 'Error: boom\n\tat x',
    };
    expect((await postBatch(t.app, { apiKey, events: [fine, error as never] })).statusCode).toBe(200);
    const rows = await storedEvents(t.services, project.id);
    expect(rows.map((row) => row.user_id).sort()).toEqual(['user-1', 'wallet 😀']);
  });

  it('refuses a legacy GraphQL event naming the field', async () => {
    const { project } = await seed(t.services)
      .user()
      .verified()
      .project()
      .apiKey()
      .domain('legacy.example.com');
    const response = await t.app.inject({
      method: 'POST',
      url: '/api/graphql',
      headers: {
        'content-type': 'application/json',
        'x-api-key': project.apiKey as string,
        origin: 'https://legacy.example.com',
      },
      payload: JSON.stringify({
        query: 'mutation ($event: UserLandedEventInput!) { createUserLandedEvent(event: $event) { id } }',
        variables: {
          event: { tracker: { eventTracker: 'USER_LANDED', userId: 'a\ud800b', sessionId: 's' } },
        },
      }),
    });
    expect(response.statusCode).toBe(400);
    const [error] = response.json().errors;
    expect(error.message).toContain('event.tracker.userId');
    expect(error.extensions.code).toBe('INVALID_REQUEST_BODY');
    expect(await storedEvents(t.services, project.id)).toEqual([]);
  });

  it('refuses a project name with a lone surrogate instead of storing U+FFFD', async () => {
    const user = await seed(t.services).user().verified();
    for (const name of ['\ud800x', 'Shop\u0000', 'Tab\there']) {
      const response = await apiClient(t.app).post('projects', { token: user.token, body: { name } });
      expect(response.statusCode).toBe(400);
      expect(errorOf(response).details).toEqual([
        { path: 'name', message: expect.stringContaining('surrogates') },
      ]);
    }
    expect(await t.services.projects.listProjects(user.id)).toEqual([]);
  });
});
