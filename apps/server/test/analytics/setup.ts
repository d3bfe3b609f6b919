import { beforeAll } from 'vitest';
import { storeRows } from '../support/event-stores.ts';
import { type TestApp, useTestApp } from '../support/harness.ts';
import { type SeededUser, seed } from '../support/seed.ts';
import { mainProjectEvents, sameInstantEvents } from './events-fixture.ts';
import { type GraphqlAnswer, graphqlClient } from './graphql-client.ts';

export type AnalyticsWorld = {
  test: TestApp;
  /** Owns `main`, `empty` and `sameInstant`. */
  owner: SeededUser;
  /** Owns `foreign`, a project with the same events as `main`. */
  stranger: SeededUser;
  main: string;
  empty: string;
  sameInstant: string;
  foreign: string;
  /** A query as `owner` unless another token is given. */
  gql(query: string, variables: Record<string, unknown>, token?: string): Promise<GraphqlAnswer>;
};

/** A server with the hand-built event set stored through the event store, one per test file. */
export function useAnalyticsWorld(): AnalyticsWorld {
  const test = useTestApp('sqlite');
  const world = { test } as AnalyticsWorld;
  beforeAll(async () => {
    const { services } = test;
    const owner = seed(services).user().verified();
    const { user, project: main } = await owner.project('Main');
    const { project: empty } = await owner.project('Empty');
    const { project: sameInstant } = await owner.project('Same instant');
    const { user: stranger, project: foreign } = await seed(services).user().verified().project('Foreign');
    await storeRows(services.eventStore, [
      ...mainProjectEvents(main.id),
      ...sameInstantEvents(sameInstant.id),
      ...mainProjectEvents(foreign.id),
    ]);
    const client = graphqlClient(test.app);
    Object.assign(world, {
      owner: user,
      stranger,
      main: main.id,
      empty: empty.id,
      sameInstant: sameInstant.id,
      foreign: foreign.id,
      gql: (query: string, variables: Record<string, unknown>, token?: string) =>
        client(query, variables, { token: token ?? user.token }),
    });
  });
  return world;
}

export const SERIES_QUERY = (field: string) => `
  query Series($projectId: ID!, $from: DateTime, $to: DateTime, $granularity: String) {
    ${field}(projectId: $projectId, from: $from, to: $to, granularity: $granularity) { from to value }
  }`;

/** `[{from, to, value}]` → the values, for compact expectations. */
export const valuesOf = (buckets: unknown): unknown[] =>
  (buckets as { value: unknown }[]).map((b) => b.value);
