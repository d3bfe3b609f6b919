import { beforeAll } from 'vitest';
import { incidentIdOf } from '../../src/modules/incidents/fingerprint.ts';
import { type GraphqlAnswer, graphqlClient } from '../analytics/graphql-client.ts';
import { storeRows } from '../support/event-stores.ts';
import { type TestApp, useTestApp } from '../support/harness.ts';
import { type SeededUser, seed } from '../support/seed.ts';
import { incidentEvents } from './fixture.ts';

export type IncidentWorld = {
  test: TestApp;
  owner: SeededUser;
  stranger: SeededUser;
  main: string;
  empty: string;
  foreign: string;
  /** The ids of the fixture's incidents in `main`, from their fingerprints. */
  ids: Record<'A' | 'B' | 'C' | 'D' | 'E', string>;
  gql(query: string, variables: Record<string, unknown>, token?: string): Promise<GraphqlAnswer>;
};

export const FINGERPRINTS = {
  A: 'window|TypeError: Cannot read properties of undefined (reading <str>)|/assets/index.js:submitSwap',
  B: 'wallet|code=-32603|method=eth_sendTransaction',
  C: 'promise|Request to <url> failed after <n>ms|',
  D: 'window|TypeError: Cannot read properties of undefined (reading <str>)|/assets/index.js:refundOrder',
  E: 'wallet|code=4100|method=wallet_switchEthereumChain',
} as const;

/** A server with the fixture stored through the event store (which stamps the incident ids). */
export function useIncidentWorld(): IncidentWorld {
  const test = useTestApp('sqlite');
  const world = { test } as IncidentWorld;
  beforeAll(async () => {
    const { services } = test;
    const owner = seed(services).user().verified();
    const { user, project: main } = await owner.project('Main');
    const { project: empty } = await owner.project('Empty');
    const { user: stranger, project: foreign } = await seed(services).user().verified().project('Foreign');
    await storeRows(services.eventStore, [...incidentEvents(main.id), ...incidentEvents(foreign.id)]);
    const client = graphqlClient(test.app);
    const ids = Object.fromEntries(
      Object.entries(FINGERPRINTS).map(([name, fingerprint]) => [name, incidentIdOf(main.id, fingerprint)]),
    ) as IncidentWorld['ids'];
    Object.assign(world, {
      owner: user,
      stranger,
      main: main.id,
      empty: empty.id,
      foreign: foreign.id,
      ids,
      gql: (query: string, variables: Record<string, unknown>, token?: string) =>
        client(query, variables, { token: token ?? user.token }),
    });
  });
  return world;
}

const ROW_FIELDS = `id type title severity firstSeen lastSeen occurrences affectedUsers affectedWallets activeDays
  failedTransactions wallet code method status isRegression statusChangedAt assignee { userId email assignedAt }`;

export const LIST_QUERY = `
  query List($projectId: ID!, $from: DateTime, $to: DateTime, $search: String, $severities: [Severity!], $statuses: [IncidentStatus!], $first: Int, $after: String) {
    incidents(projectId: $projectId, from: $from, to: $to, search: $search, severities: $severities, statuses: $statuses, first: $first, after: $after) {
      from to totalIncidents byStatus { open resolved ignored } transactionFailRate bySeverity { low mid high severe } matching nextCursor
      rows { ${ROW_FIELDS} }
    }
  }`;

export const DETAIL_QUERY = `
  query Detail($projectId: ID!, $id: ID!, $from: DateTime, $to: DateTime) {
    incident(projectId: $projectId, id: $id, from: $from, to: $to) {
      ${ROW_FIELDS} from to fingerprint
      lifetime { firstSeen lastSeen occurrences affectedUsers affectedWallets activeDays failedTransactions activeUsers reach }
      latest {
        eventId time userId sessionId wallet message stack code method path browser os country
        walletState { gasBalanceWei gasBalance symbol nonce chainId network walletProvider }
        trail { time type description }
      }
    }
  }`;
