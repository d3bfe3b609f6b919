import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render, screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { CsvScope } from '../../../components/ui/download-csv-button';
import { logIn } from '../../../testing/fixtures';
import { data, serveGraphql } from '../../../testing/serve-graphql';
import { FailedCostCard } from './failed-cost-card';

const C1 = `0x${'c1'.repeat(20)}`;
const row = (selector: string, functionName: string | null) => ({
  day: '2025-01-02',
  chainId: 1,
  contract: C1,
  selector,
  functionName,
  reverted: 1,
  gasBurnedWei: '300000000000000',
});

describe('What failed transactions cost', () => {
  it('names a well-known function as "Most executed contract functions" does, else shows its selector', async () => {
    logIn();
    serveGraphql([], {
      failedTransactionCost: data({
        failedTransactionCost: {
          chains: [
            {
              chainId: 1,
              gasPaidWei: '900000000000000',
              gasBurnedWei: '600000000000000',
              burnedShare: 0.666667,
              reverted: 2,
              failedBeforeSubmission: 0,
            },
          ],
          rows: [
            row(
              '0x414bf389',
              'exactInputSingle((address,address,uint24,address,uint256,uint256,uint256,uint160))',
            ),
            row('0x12345678', null),
          ],
        },
      }),
    });
    const queryClient = new QueryClient({ defaultOptions: { queries: { retry: false } } });
    render(
      <QueryClientProvider client={queryClient}>
        <CsvScope scope={{ project: 'Shop', screen: 'analytics', from: '2025-01-01', to: '2025-02-01' }}>
          <FailedCostCard
            range={{ projectId: 'p1', from: '2025-01-01T00:00:00Z', to: '2025-02-01T00:00:00Z' }}
          />
        </CsvScope>
      </QueryClientProvider>,
    );
    const card = await screen.findByTestId('failed-cost');
    const rows = within(card)
      .getAllByRole('row')
      .map((each) => each.textContent ?? '');
    expect(rows.some((text) => text.includes('exactInputSingle') && !text.includes('0x414bf389'))).toBe(true);
    expect(rows.some((text) => text.includes('0x12345678'))).toBe(true);
  });
});
