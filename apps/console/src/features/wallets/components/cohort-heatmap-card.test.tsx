import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { CsvScope } from '../../../components/ui/download-csv-button';
import { logIn } from '../../../testing/fixtures';
import { data, serveGraphql } from '../../../testing/serve-graphql';
import { CohortHeatmapCard } from './cohort-heatmap-card';

const cohort = (start: string) => ({
  start,
  end: start,
  size: 100,
  returned: Array.from({ length: 12 }, (_, k) => 50 - k),
  shares: Array.from({ length: 12 }, (_, k) => (50 - k) / 100),
});

function renderCard(filters?: { countries: string[] }) {
  const queryClient = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  render(
    <QueryClientProvider client={queryClient}>
      <CsvScope scope={{ project: 'Shop', screen: 'analytics', from: '2025-01-01', to: '2025-04-01' }}>
        <CohortHeatmapCard
          range={{ projectId: 'p1', from: '2025-01-01T00:00:00Z', to: '2025-04-01T00:00:00Z', filters }}
        />
      </CsvScope>
    </QueryClientProvider>,
  );
}

/** The headers a phone shows: those without the below-`sm` hiding class. */
const phoneHeaders = (table: HTMLElement) =>
  within(table)
    .getAllByRole('columnheader')
    .filter((header) => !header.className.includes('max-sm:hidden'))
    .map((header) => header.textContent);

describe('Retention cohorts on a phone', () => {
  it('shows four weeks at a time and a control to pick which, every week on wider screens', async () => {
    logIn();
    serveGraphql([], {
      retentionCohorts: data({
        retentionCohorts: {
          granularity: 'WEEK',
          periods: 12,
          cohorts: [cohort('2025-01-06'), cohort('2025-01-13')],
        },
      }),
    });
    renderCard();
    const table = await screen.findByRole('table');
    expect(within(table).getAllByRole('columnheader')).toHaveLength(14);
    expect(phoneHeaders(table)).toEqual(['Cohort', 'Wallets', 'W1', 'W2', 'W3', 'W4']);
    const weeks = screen.getByRole('group', { name: 'Weeks shown' });
    const buttons = within(weeks).getAllByRole('button');
    expect(buttons.map((button) => button.textContent)).toEqual(['W1–4', 'W5–8', 'W9–12']);
    expect(buttons[0]?.getAttribute('aria-pressed')).toBe('true');

    await userEvent.click(within(weeks).getByRole('button', { name: 'Weeks 9 to 12' }));
    expect(phoneHeaders(table)).toEqual(['Cohort', 'Wallets', 'W9', 'W10', 'W11', 'W12']);
    // Each row's cells follow the headers: the cohort, its size and weeks 9–12.
    const [, firstRow] = within(table).getAllByRole('row');
    const shown = within(firstRow as HTMLElement)
      .getAllByRole('cell')
      .filter((cell) => !cell.className.includes('max-sm:hidden'))
      .map((cell) => cell.textContent);
    expect(shown).toEqual(['100', '42%', '41%', '40%', '39%']);
  });
});

describe('Retention cohorts under the Analytics filters', () => {
  it('asks with the filters and says what a filtered cohort holds', async () => {
    logIn();
    const api = serveGraphql([], {
      retentionCohorts: data({
        retentionCohorts: { granularity: 'WEEK', periods: 12, cohorts: [cohort('2025-01-06')] },
      }),
    });
    renderCard({ countries: ['DE'] });
    await screen.findByRole('table');
    expect(api.lastCurrentCallOf('retentionCohorts')?.variables.filters).toEqual({ countries: ['DE'] });
    expect(screen.getByTestId('filtered-note-cohorts').textContent).toBe(
      'Filtered: wallets first connected in a matching session; a return counts in any session.',
    );
  });

  it('says nothing of filters without them', async () => {
    logIn();
    serveGraphql([], {
      retentionCohorts: data({
        retentionCohorts: { granularity: 'WEEK', periods: 12, cohorts: [cohort('2025-01-06')] },
      }),
    });
    renderCard();
    await screen.findByRole('table');
    expect(screen.queryByTestId('filtered-note-cohorts')).toBeNull();
  });
});

describe('Retention cohorts of one attribution value', () => {
  it('reads source=discord, says what it expects of text it cannot read, and keeps the field while the split loads', async () => {
    logIn();
    const { callsOf } = serveGraphql([], {
      retentionCohorts: data({
        retentionCohorts: { granularity: 'WEEK', periods: 12, cohorts: [cohort('2025-01-06')] },
      }),
    });
    renderCard();
    await screen.findByRole('table');
    const field = screen.getByLabelText('Only');
    expect(field.getAttribute('aria-describedby')).toBeTruthy();
    expect(screen.getByText(/Optional: source, medium or campaign, then = and a value/)).toBeTruthy();

    await userEvent.type(field, 'discord{Enter}');
    expect(field.getAttribute('aria-invalid')).toBe('true');
    const error = screen.getByRole('alert');
    expect(error.textContent).toContain('leave it empty for every wallet');
    expect(field.getAttribute('aria-describedby')).toContain(error.id);
    expect(document.activeElement).toBe(field);
    const asked = callsOf('retentionCohorts').length;

    await userEvent.clear(field);
    await userEvent.type(field, 'Source = discord');
    await userEvent.click(screen.getByRole('button', { name: 'Apply' }));
    // The same field, kept with its focus while the cohorts of the split load.
    expect(field.getAttribute('aria-invalid')).toBeNull();
    expect(screen.getByLabelText('Only')).toBe(field);
    expect(screen.queryByRole('alert')).toBeNull();
    await vi.waitFor(() => expect(callsOf('retentionCohorts').length).toBeGreaterThan(asked));
    expect(callsOf('retentionCohorts').at(-1)?.variables).toMatchObject({
      splitDimension: 'source',
      splitValue: 'discord',
    });
    expect(screen.getByLabelText('Only')).toBe(field);
  });
});
