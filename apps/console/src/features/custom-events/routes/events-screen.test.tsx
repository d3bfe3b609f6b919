import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { buildProject, logIn } from '../../../testing/fixtures';
import { renderApp } from '../../../testing/render-app';
import { type Answer, data, graphqlError, serveGraphql } from '../../../testing/serve-graphql';

function setUp(answers: Record<string, Answer>, timeZone = 'UTC') {
  logIn();
  const project = buildProject({ timeZone });
  const api = serveGraphql([project], answers);
  const view = renderApp(`/console/${project.id}/events`);
  return { ...view, api, project };
}

const counts = (variables: Record<string, unknown>) =>
  data({
    customEvents: variables.previous
      ? [{ name: 'swap', events: 2, users: 2 }]
      : [
          { name: 'swap', events: 4, users: 2 },
          { name: 'bridge_route_selected', events: 1219, users: 1003 },
        ],
  });

describe('Events screen', () => {
  it('lists custom events with users and the change, the first one per day and by a property', async () => {
    const { api } = setUp({
      customEvents: counts,
      customEventSeries: (variables) =>
        data({
          customEventSeries: [
            { day: '2024-02-01', events: variables.name === 'swap' ? 2 : 1, users: 1 },
            { day: '2024-02-02', events: 1500, users: 1 },
          ],
        }),
      customEventBreakdown: () =>
        data({
          customEventBreakdown: [
            { value: 'ETH/USDC', events: 3, users: 1 },
            { value: null, events: 1, users: 1 },
          ],
        }),
    });
    const table = await screen.findByTestId('custom-events');
    expect(
      within(table)
        .getAllByRole('row')
        .map((row) => row.textContent),
    ).toEqual([
      'EventEventsUsers',
      expect.stringContaining('swap4'),
      expect.stringContaining('bridge_route_selected1,219'),
    ]);
    const series = await screen.findByTestId('event-series');
    // Days read like every other date of the console ("1 Feb 2024"), not as ISO keys.
    expect(within(series).getByText('1 Feb 2024')).toBeTruthy();
    expect(within(series).queryByText('2024-02-01')).toBeNull();
    expect(within(series).getByText('1 Feb 2024').closest('time')?.getAttribute('dateTime')).toBe(
      '2024-02-01',
    );
    // Counts read as everywhere else in the console: thousands grouped, one user singular.
    expect(within(series).getByText('1,500 · 1 user')).toBeTruthy();
    await userEvent.type(screen.getByLabelText('Property'), 'pair');
    await userEvent.click(screen.getByRole('button', { name: 'Break down' }));
    const breakdown = await screen.findByTestId('event-breakdown');
    expect(within(breakdown).getByText('ETH/USDC')).toBeTruthy();
    expect(within(breakdown).getByText('not set')).toBeTruthy();
    const bridge = within(table).getByRole('button', { name: 'bridge_route_selected' });
    // A phone wraps it at its seams ("bridge_ / route_ / selected"), never inside a word.
    expect(bridge.className).not.toMatch(/break-all|wrap-anywhere/);
    expect(bridge.querySelectorAll('wbr')).toHaveLength(2);
    await userEvent.click(bridge);
    await waitFor(() =>
      expect(
        api.calls.some(
          (call) => call.field === 'customEventSeries' && call.variables.name === 'bridge_route_selected',
        ),
      ).toBe(true),
    );
  });

  it("asks for the days of the project's time zone and says which", async () => {
    const { api } = setUp(
      {
        customEvents: counts,
        customEventSeries: () => data({ customEventSeries: [{ day: '2024-02-01', events: 2, users: 1 }] }),
      },
      'Asia/Kolkata',
    );
    const series = await screen.findByTestId('event-series');
    // A local day key names that day in the project's zone, not shifted by the zone's offset.
    expect(within(series).getByText('1 Feb 2024')).toBeTruthy();
    expect(api.calls.find((call) => call.field === 'customEventSeries')?.variables.timeZone).toBe(
      'Asia/Kolkata',
    );
    expect(screen.getByText('Events and users, days in Asia/Kolkata')).toBeTruthy();
  });

  it('says so when the project has no custom event', async () => {
    setUp({ customEvents: () => data({ customEvents: [] }) });
    expect(await screen.findByText('No custom event')).toBeTruthy();
  });

  it('shows the error when the events cannot be loaded', async () => {
    setUp({ customEvents: () => graphqlError('Boom.', 'INTERNAL_ERROR', 500) });
    expect(await screen.findByText(/Could not load the events/)).toBeTruthy();
  });
});
