import { describe, expect, it } from 'vitest';
import { connectClickHouse, isClickHouseError } from '../../src/modules/event-store/clickhouse/client.ts';
import { useChdbSuite } from './chdb-suite.ts';

const suite = useChdbSuite('polyflow-ch-driver-', 60_000);

/**
 * `@clickhouse/client` is loaded by the first connection (ADR 089): the loader still tells ClickHouse's
 * refusals of a record (quarantined) from other failures (retried).
 */
describe('the ClickHouse driver, loaded by the first connection', () => {
  it('tells an error ClickHouse answered from any other error', { timeout: 60_000 }, async () => {
    expect(isClickHouseError(new Error('not from ClickHouse'))).toBe(false);
    const clickhouse = await connectClickHouse(`${suite.url}/pf_driver_on_demand`);
    try {
      const refusal = await clickhouse.command('SELECT no_such_column FROM system.one').then(
        () => undefined,
        (error: unknown) => error,
      );
      expect(refusal).toBeDefined();
      expect(isClickHouseError(refusal)).toBe(true);
      expect(isClickHouseError(new Error('not from ClickHouse'))).toBe(false);
    } finally {
      await clickhouse.close();
    }
  });
});
