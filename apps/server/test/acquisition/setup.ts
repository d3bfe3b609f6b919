import { beforeAll } from 'vitest';
import { type GraphqlAnswer, graphqlClient } from '../analytics/graphql-client.ts';
import { storeRows } from '../support/event-stores.ts';
import { type TestApp, useTestApp } from '../support/harness.ts';
import { type SeededUser, seed } from '../support/seed.ts';
import { acquisitionEvents } from './fixture.ts';

export type AcquisitionWorld = {
  test: TestApp;
  owner: SeededUser;
  stranger: SeededUser;
  /** The hand-built event set (fixture.ts). */
  main: string;
  /** No events at all. */
  empty: string;
  /** The stranger's project, with a copy of the same events. */
  foreign: string;
  gql(query: string, variables: Record<string, unknown>, token?: string): Promise<GraphqlAnswer>;
};

/** A server with the fixture stored through the event store, one per test file. */
export function useAcquisitionWorld(): AcquisitionWorld {
  const test = useTestApp('sqlite');
  const world = { test } as AcquisitionWorld;
  beforeAll(async () => {
    const { services } = test;
    const owner = seed(services).user().verified();
    const { user, project: main } = await owner.project('Main');
    const { project: empty } = await owner.project('Empty');
    const { user: stranger, project: foreign } = await seed(services).user().verified().project('Foreign');
    await storeRows(services.eventStore, [...acquisitionEvents(main.id), ...acquisitionEvents(foreign.id)]);
    const client = graphqlClient(test.app);
    Object.assign(world, {
      owner: user,
      stranger,
      main: main.id,
      empty: empty.id,
      foreign: foreign.id,
      gql: (query: string, variables: Record<string, unknown>, token?: string) =>
        client(query, variables, { token: token ?? user.token }),
    });
  });
  return world;
}

export const FUNNEL_QUERY = `
  query Funnel($projectId: ID!, $from: DateTime, $to: DateTime, $filters: AcquisitionFilters) {
    acquisitionFunnel(projectId: $projectId, from: $from, to: $to, filters: $filters) {
      from to steps { key label users share }
    }
  }`;

export const ATTRIBUTION_QUERY = `
  query Attribution($projectId: ID!, $dimension: AttributionDimension!, $from: DateTime, $to: DateTime, $filters: AcquisitionFilters) {
    attribution(projectId: $projectId, dimension: $dimension, from: $from, to: $to, filters: $filters) {
      dimension from to
      rows {
        kind value newWallets connects transactions sessions users
        sessionsWithTransaction usersWithTransaction sessionsWithConnect usersWithConnect
        transactionSessionRate transactionUserRate connectSessionRate connectUserRate
      }
    }
  }`;

export const FILTER_OPTIONS_QUERY = `
  query Options($projectId: ID!, $from: DateTime, $to: DateTime) {
    acquisitionFilterOptions(projectId: $projectId, from: $from, to: $to) {
      countries { value users } terms { value users } sources { value users } mediums { value users }
      campaigns { value users } contents { value users } browsers { value users } walletProviders { value users }
    }
  }`;
