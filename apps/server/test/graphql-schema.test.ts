import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { SCHEMA_FILE, servedSchema } from '../scripts/graphql-schema.ts';

describe('docs/graphql-schema.graphql', () => {
  it('is the schema the server serves (regenerate with `npm run docs:graphql`)', async () => {
    const served = await servedSchema();
    expect(served).toContain('totalConnectedWallets(projectId: ID!');
    expect(served).toContain('createUserLandedEvent(event: UserLandedEventInput!)');
    expect(
      readFileSync(SCHEMA_FILE, 'utf8'),
      'docs/graphql-schema.graphql is stale: run npm run docs:graphql',
    ).toBe(served);
  }, 30_000);
});
