import type { Funnel } from '@polyflow/contracts/funnels';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { buildProject, logIn } from '../../../testing/fixtures';
import type { RecordedRequest } from '../../../testing/mock-api';
import { json } from '../../../testing/mock-api';
import { renderApp } from '../../../testing/render-app';
import { data, graphqlError, serveGraphql } from '../../../testing/serve-graphql';

const SAVED: Funnel = {
  id: 'f-1',
  name: 'Pricing to swap',
  windowHours: 24,
  steps: [
    { kind: 'page', path: '/pricing/*' },
    { kind: 'event', name: 'swap', property: { key: 'pair', value: 'ETH/USDC' } },
    { kind: 'transaction', stage: 'confirmed' },
  ],
  createdBy: 'owner@example.com',
  createdAt: '2024-03-01T00:00:00.000Z',
  updatedAt: '2024-03-01T00:00:00.000Z',
};

const result = (variables: Record<string, unknown>) =>
  data({
    customFunnel: {
      funnelId: 'f-1',
      name: 'Pricing to swap',
      windowHours: 24,
      from: '2024-03-01T00:00:00.000Z',
      to: '2024-03-02T00:00:00.000Z',
      split: variables.split ?? null,
      steps: [
        { index: 1, label: 'Page /pricing/*', users: 9, conversion: 1, stepConversion: 1, dropOff: 0 },
        {
          index: 2,
          label: 'Event swap (pair = ETH/USDC)',
          users: 7,
          conversion: 7 / 9,
          stepConversion: 7 / 9,
          dropOff: 2,
        },
        {
          index: 3,
          label: 'Transaction confirmed',
          users: 5,
          conversion: 5 / 9,
          stepConversion: 5 / 7,
          dropOff: 2,
        },
      ],
      splitRows: variables.split
        ? [
            { value: null, users: [7, 5, 3], conversion: 3 / 7 },
            { value: 'google', users: [1, 1, 1], conversion: 1 },
          ]
        : [],
    },
  });

function setUp(
  funnels: Funnel[],
  options: { role?: 'owner' | 'viewer'; onPost?: (request: RecordedRequest) => void } = {},
) {
  logIn();
  const project = buildProject({ role: options.role ?? 'owner' });
  const path = `/projects/${project.id}/funnels`;
  let saved = funnels;
  const api = serveGraphql(
    [project],
    { customFunnel: result },
    {
      [`GET ${path}`]: () => json(200, { funnels: saved }),
      [`POST ${path}`]: (request) => {
        options.onPost?.(request);
        const funnel = { ...SAVED, id: 'f-2', ...(request.body as object) };
        saved = [...saved, funnel];
        return json(201, funnel);
      },
      ...Object.fromEntries(
        funnels.map((funnel) => [
          `DELETE ${path}/${funnel.id}`,
          () => {
            saved = saved.filter((listed) => listed.id !== funnel.id);
            return json(204);
          },
        ]),
      ),
      'GET /health': json(200, {}),
    },
  );
  renderApp(`/console/${project.id}/funnels`);
  return { api, project };
}

/** What the console's one live region (lib/announce.ts) says last. */
const announced = () => screen.queryByTestId('announcer')?.textContent;

// The first render loads the screen's chunks: slower than the usual 5 s on a busy machine.
describe('Funnels screen', { timeout: 20_000 }, () => {
  it('shows the saved funnel: users, conversion and drop-off per step, and the split table', async () => {
    const { api } = setUp([SAVED]);
    const chart = await screen.findByTestId('funnel-chart');
    expect(within(chart).getByTestId('funnel-step-1').textContent).toBe('9 users · 100%');
    expect(within(chart).getByTestId('funnel-step-3').textContent).toBe('5 users · 55.6%');
    expect(
      within(chart)
        .getAllByText(/dropped off/)
        .map((node) => node.textContent),
    ).toEqual(['2 dropped off', '2 dropped off']);
    await userEvent.selectOptions(screen.getByLabelText('Split by'), 'source');
    const split = await screen.findByTestId('funnel-split');
    expect(
      within(split)
        .getAllByRole('row')
        .map((row) => row.textContent),
    ).toEqual(['SourceStep 1Step 2Step 3Conversion', 'Unattributed75342.9%', 'google111100%']);
    await waitFor(() => expect(api.lastCallOf('customFunnel')?.variables.split).toBe('source'));
  });

  it('builds a funnel from the keyboard, with errors under their fields until it is valid', async () => {
    let posted: unknown;
    setUp([], { onPost: (request) => (posted = request.body) });
    await screen.findByText('No funnel yet');
    await userEvent.click(screen.getByRole('button', { name: 'New funnel' }));
    // New funnel is disabled while the builder is open: focus goes to the builder's first field.
    await waitFor(() => expect(document.activeElement).toBe(screen.getByLabelText('Name')));
    await userEvent.click(screen.getByRole('button', { name: 'Save funnel' }));
    expect(screen.getByLabelText('Name').getAttribute('aria-invalid')).toBe('true');
    expect(screen.getByLabelText('Step 1 path pattern').getAttribute('aria-invalid')).toBe('true');
    expect(posted).toBeUndefined();
    // Focus goes to the first field in error, so its error is read out and typing fixes it.
    await waitFor(() => expect(document.activeElement).toBe(screen.getByLabelText('Name')));

    await userEvent.type(screen.getByLabelText('Name'), 'Blog to wallet');
    await userEvent.type(screen.getByLabelText('Step 1 path pattern'), '/blog-*');
    await userEvent.click(screen.getByRole('button', { name: 'Save funnel' }));
    expect(screen.getByText(/whole segments only/)).toBeTruthy();
    await userEvent.clear(screen.getByLabelText('Step 1 path pattern'));
    await userEvent.type(screen.getByLabelText('Step 1 path pattern'), '/blog/**');
    await userEvent.click(screen.getByRole('button', { name: 'Add step' }));
    await userEvent.type(screen.getByLabelText('Step 3 event name'), 'swap');
    await userEvent.clear(screen.getByLabelText('Window'));
    await userEvent.type(screen.getByLabelText('Window'), '2{Enter}');
    // The builder goes: focus moves to the saved funnel in the list, and the save is said.
    await waitFor(() =>
      expect(document.activeElement).toBe(screen.getByRole('button', { name: /^Blog to wallet/ })),
    );
    expect(announced()).toBe('Funnel Blog to wallet saved');
    await waitFor(() =>
      expect(posted).toEqual({
        name: 'Blog to wallet',
        windowHours: 48,
        steps: [
          { kind: 'page', path: '/blog/**' },
          { kind: 'wallet_connected' },
          { kind: 'event', name: 'swap' },
        ],
      }),
    );
  });

  it('moves a step with focus following it, and after a removal focuses the step that took its place', async () => {
    setUp([]);
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: 'New funnel' }));
    await user.click(screen.getByRole('button', { name: 'Add step' }));
    const kinds = () => within(screen.getByRole('list', { name: 'Steps' })).getAllByLabelText('Kind');
    // Add step: focus goes to the new step's Kind.
    await waitFor(() => expect(document.activeElement).toBe(kinds()[2]));
    await user.type(screen.getByLabelText('Step 3 event name'), 'swap');

    screen.getByRole('button', { name: 'Move step 3 up' }).focus();
    await user.keyboard('{Enter}');
    // The same step's Up button, now step 2's: Enter again moves it on instead of undoing the move.
    await waitFor(() =>
      expect(document.activeElement).toBe(screen.getByRole('button', { name: 'Move step 2 up' })),
    );
    expect((screen.getByLabelText('Step 2 event name') as HTMLInputElement).value).toBe('swap');
    await waitFor(() => expect(announced()).toBe('Step 3 moved to position 2'));
    await user.keyboard('{Enter}');
    expect((screen.getByLabelText('Step 1 event name') as HTMLInputElement).value).toBe('swap');
    // At the top, Up is disabled: focus goes to the same step's Down.
    await waitFor(() =>
      expect(document.activeElement).toBe(screen.getByRole('button', { name: 'Move step 1 down' })),
    );

    screen.getByRole('button', { name: 'Remove step 2' }).focus();
    await user.keyboard('{Enter}');
    // Two steps left, so no Remove: focus goes to the Kind of the step that took step 2's place.
    await waitFor(() => expect(document.activeElement).toBe(kinds()[1]));
    expect(kinds()).toHaveLength(2);
    await waitFor(() => expect(announced()).toBe('Step 2 removed'));
  });

  it('after deleting a funnel, focuses the next one’s Delete button and says so', async () => {
    setUp([SAVED, { ...SAVED, id: 'f-3', name: 'Blog to wallet' }]);
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: 'Delete Pricing to swap' }));
    const dialog = await screen.findByRole('dialog', { name: /Delete/ });
    await user.click(within(dialog).getByRole('button', { name: 'Delete funnel' }));
    await waitFor(() => expect(screen.queryByRole('button', { name: 'Delete Pricing to swap' })).toBeNull());
    await waitFor(() =>
      expect(document.activeElement).toBe(screen.getByRole('button', { name: 'Delete Blog to wallet' })),
    );
    expect(announced()).toBe('Funnel Pricing to swap deleted');
  });

  it('refuses a window beyond 30 days before asking the server', async () => {
    let posted = false;
    setUp([], { onPost: () => (posted = true) });
    await userEvent.click(await screen.findByRole('button', { name: 'New funnel' }));
    await userEvent.type(screen.getByLabelText('Name'), 'Long');
    await userEvent.type(screen.getByLabelText('Step 1 path pattern'), '/');
    await userEvent.clear(screen.getByLabelText('Window'));
    await userEvent.type(screen.getByLabelText('Window'), '31');
    await userEvent.click(screen.getByRole('button', { name: 'Save funnel' }));
    expect(screen.getByText('The window is 1 hour to 30 days.')).toBeTruthy();
    expect(posted).toBe(false);
    await waitFor(() => expect(document.activeElement).toBe(screen.getByLabelText('Window')));
  });

  it('lets viewers read but not build', async () => {
    setUp([SAVED], { role: 'viewer' });
    await screen.findByTestId('funnel-chart');
    expect(screen.queryByRole('button', { name: 'New funnel' })).toBeNull();
    expect(screen.queryByRole('button', { name: /Delete/ })).toBeNull();
  });

  it('says when the answer fails', async () => {
    logIn();
    const project = buildProject();
    serveGraphql(
      [project],
      { customFunnel: graphqlError('Funnel not found.', 'NOT_FOUND', 404) },
      {
        [`GET /projects/${project.id}/funnels`]: json(200, { funnels: [SAVED] }),
      },
    );
    renderApp(`/console/${project.id}/funnels`);
    expect(await screen.findByText(/Could not load the funnel: Funnel not found/)).toBeTruthy();
  });
});
