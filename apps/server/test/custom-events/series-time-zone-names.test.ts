import { beforeAll, describe, expect, it } from 'vitest';
import { blankRow } from '../../src/modules/event-store/event-row.ts';
import { dataOf, errorOf, graphqlClient } from '../analytics/graphql-client.ts';
import { storeRows } from '../support/event-stores.ts';
import { useTestApp } from '../support/harness.ts';
import { seed } from '../support/seed.ts';

/**
 * customEventSeries takes the time zone names a project's setting takes (docs/custom-events.md#series,
 * docs/timezone.md), on both engines. Round 39 found it took any spelling the runtime's Intl resolves
 * (`europe/berlin`, `utc`, `EST5EDT`, `US/Pacific-New`), which the project setting refuses and the engines
 * need not know.
 */
const test = useTestApp('sqlite');
const world = {} as { projectId: string; token: string; gql: ReturnType<typeof graphqlClient> };

beforeAll(async () => {
  const { user, project } = await seed(test.services).user().verified().project('Zones');
  const ts = Date.parse('2024-02-01T23:30:00Z');
  await storeRows(test.services.eventStore, [
    {
      ...blankRow({
        project_id: project.id,
        id: 'zone-event-1',
        type: 'custom',
        ts,
        received_at: ts,
        user_id: 'u1',
        session_id: 's1',
        origin: 'app.example.com',
      }),
      event_name: 'swap',
    },
  ]);
  Object.assign(world, { projectId: project.id, token: user.token, gql: graphqlClient(test.app) });
});

const SERIES = `query ($projectId: ID!, $timeZone: String) {
  customEventSeries(projectId: $projectId, from: "2024-02-01T00:00:00Z", to: "2024-02-03T00:00:00Z", name: "swap", timeZone: $timeZone) { day events } }`;
const ask = (timeZone: string) =>
  world.gql(SERIES, { projectId: world.projectId, timeZone }, { token: world.token });

describe('customEventSeries time zones', () => {
  it('refuses a name the project setting refuses, with BAD_USER_INPUT', async () => {
    for (const name of [
      'europe/berlin',
      'utc',
      'ETC/UTC',
      'EST5EDT',
      'US/Pacific-New',
      'GMT0',
      'Europe/Berlin ',
    ]) {
      const answer = await ask(name);
      expect({ name, code: errorOf(answer).code }).toEqual({ name, code: 'BAD_USER_INPUT' });
    }
  });

  it('answers every name of the project setting, former names included', async () => {
    const days = async (name: string) =>
      (dataOf(await ask(name)).customEventSeries as { day: string; events: number }[]).filter(
        (day) => day.events > 0,
      );
    expect(await days('UTC')).toEqual([{ day: '2024-02-01', events: 1 }]);
    expect(await days('Europe/Berlin')).toEqual([{ day: '2024-02-02', events: 1 }]);
    expect(await days('Asia/Calcutta')).toEqual([{ day: '2024-02-02', events: 1 }]);
    expect(await days('America/New_York')).toEqual([{ day: '2024-02-01', events: 1 }]);
  });
});
