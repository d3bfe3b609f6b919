import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render, screen, within } from '@testing-library/react';
import type { ReactNode } from 'react';
import { MemoryRouter } from 'react-router';
import { afterEach, describe, expect, it } from 'vitest';
import { CsvScope } from '../../../components/ui/download-csv-button';
import { setDisplayTimeZone } from '../../../lib/format';
import { logIn } from '../../../testing/fixtures';
import { data, serveGraphql } from '../../../testing/serve-graphql';
import { CohortHeatmapCard } from './cohort-heatmap-card';
import { LifecycleCard } from './lifecycle-card';

/**
 * The Wallets cards' days are the project zone's (docs/wallets.md): an as-of day is a calendar date, written
 * as it is whatever the zone; a cohort starts at an instant, a local midnight, written as that local day.
 */
const RANGE = { projectId: 'p1', from: '2024-05-01T04:00:00Z', to: '2024-06-01T04:00:00Z' };

function renderIn(node: ReactNode) {
  const queryClient = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  render(
    <MemoryRouter>
      <QueryClientProvider client={queryClient}>
        <CsvScope scope={{ project: 'Shop', screen: 'analytics', from: '2024-05-01', to: '2024-06-01' }}>
          {node}
        </CsvScope>
      </QueryClientProvider>
    </MemoryRouter>,
  );
}

const counts = (asOf: string) => ({
  asOf,
  new: 1,
  resurrected: 0,
  power: 0,
  active: 2,
  atRisk: 0,
  churned: 0,
  powerThreshold: 2,
});

describe('the Wallets cards in a zone other than UTC', () => {
  afterEach(() => setDisplayTimeZone('UTC'));

  it('writes the lifecycle’s as-of day as the date it is, west of UTC too', async () => {
    logIn();
    setDisplayTimeZone('America/New_York');
    serveGraphql([], {
      walletLifecycle: data({
        walletLifecycle: { current: counts('2024-05-31'), previous: counts('2024-04-30') },
      }),
    });
    renderIn(<LifecycleCard range={RANGE} listPath={(stage) => `/wallets?stage=${stage}`} />);
    expect(await screen.findByText('As of 31 May 2024')).toBeTruthy();
  });

  it('writes a cohort’s start as the local day it begins', async () => {
    logIn();
    setDisplayTimeZone('Europe/Berlin');
    serveGraphql([], {
      retentionCohorts: data({
        retentionCohorts: {
          granularity: 'DAY',
          periods: 12,
          cohorts: [
            {
              start: '2024-05-24T22:00:00.000Z',
              end: '2024-05-25T22:00:00.000Z',
              size: 1,
              returned: Array.from({ length: 12 }, () => 0),
              shares: Array.from({ length: 12 }, () => 0),
            },
          ],
        },
      }),
    });
    renderIn(<CohortHeatmapCard range={RANGE} />);
    const table = await screen.findByRole('table');
    expect(within(table).getAllByRole('rowheader')[0]?.textContent).toBe('25 May 2024');
  });
});
