import type { IngestEvent } from '@polyflow/contracts/events';
import { beforeAll, describe, expect, it } from 'vitest';
import { graphqlClient } from '../analytics/graphql-client.ts';
import { everyEventShape } from '../ingestion/wire-events.ts';
import { useTestApp } from '../support/harness.ts';
import { seed } from '../support/seed.ts';
import { everyDashboardQuery } from './every-query.ts';
import { storeAsReceived } from './store-events.ts';

/**
 * Ingestion accepts chain ids up to 2^53 − 1 (packages/contracts); GraphQL's `Int` holds 32 bits. The
 * random batches found 6978651801553993 answered as INTERNAL_ERROR by the transaction history: every
 * answer and argument naming a chain is the `ChainId` scalar.
 */
const LARGE_CHAIN_ID = 6_978_651_801_553_993;
/** Near 2^127: two such receipts' fees overflowed DuckDB's 128-bit product (found by the random batches). */
const HUGE = '170141183460469231731687303715884105692';

describe('chain ids past 32 bits, and receipts past any real fee', () => {
  const t = useTestApp('sqlite');
  let projectId = '';
  let token = '';
  beforeAll(async () => {
    const { user, project } = await seed(t.services).user().verified().project();
    projectId = project.id;
    token = user.token;
    const now = Date.now() - 60_000;
    const events = everyEventShape().map(
      (event) =>
        ({
          ...event,
          ts: now,
          ...('chainId' in event ? { chainId: LARGE_CHAIN_ID } : {}),
          ...(event.type === 'tx' ? { gasUsed: HUGE, effectiveGasPrice: HUGE } : {}),
        }) as IngestEvent,
    );
    await storeAsReceived(t.services.eventStore, project.id, events);
  });

  it('answers every dashboard query, never INTERNAL_ERROR', async () => {
    const gql = graphqlClient(t.app);
    const failures: string[] = [];
    for (const asked of everyDashboardQuery(projectId, {})) {
      const answer = await gql(asked.query, asked.variables, { token });
      const codes = (answer.errors ?? []).map((error) => String(error.extensions?.code));
      if (answer.status >= 500 || codes.includes('INTERNAL_ERROR')) {
        failures.push(`${asked.name}: ${answer.status} ${JSON.stringify(answer.errors)}`);
      }
    }
    expect(failures).toEqual([]);
  });

  it('names the chain in the history and filters the gas price by it', async () => {
    const gql = graphqlClient(t.app);
    const history = await gql(
      `query ($projectId: ID!) { transactionHistory(projectId: $projectId) { rows { chainId } } }`,
      { projectId },
      { token },
    );
    expect(history.errors).toBeUndefined();
    const rows = (history.data as { transactionHistory: { rows: { chainId: number | null }[] } })
      .transactionHistory.rows;
    expect(rows.map((row) => row.chainId)).toContain(LARGE_CHAIN_ID);
    const gas = await gql(
      `query ($projectId: ID!, $chainId: ChainId) { averageGasPrice(projectId: $projectId, chainId: $chainId) { value } }`,
      { projectId, chainId: LARGE_CHAIN_ID },
      { token },
    );
    expect(gas.errors).toBeUndefined();
    const refused = await gql(
      `query ($projectId: ID!, $chainId: ChainId) { averageGasPrice(projectId: $projectId, chainId: $chainId) { value } }`,
      { projectId, chainId: 2 ** 53 },
      { token },
    );
    expect(refused.status).toBeLessThan(500);
    expect(refused.errors?.[0]?.extensions?.code).toBe('BAD_USER_INPUT');
    expect(refused.errors?.[0]?.message).toMatch(/chainId/);
  });
});
