import type { LiveEvent } from '@polyflow/contracts/live';
import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { buildProject, logIn } from '../../../testing/fixtures';
import { json, mockApi } from '../../../testing/mock-api';
import { renderApp } from '../../../testing/render-app';

const event = (overrides: Partial<LiveEvent>): LiveEvent => ({
  id: 'ev_1',
  type: 'page_view',
  time: '2026-11-24T12:00:01.000Z',
  receivedAt: '2026-11-24T12:00:01.200Z',
  userId: 'u1',
  sessionId: 's1',
  path: '/swap',
  wallet: null,
  walletProvider: null,
  chainId: null,
  txStage: null,
  txHash: null,
  signatureStage: null,
  signatureMethod: null,
  errorMessage: null,
  country: 'DE',
  browser: 'Chrome',
  ...overrides,
});

/** Answers the live route with a text/event-stream the test writes to, and everything else as before. */
function serveLiveStream() {
  const encoder = new TextEncoder();
  let controller: ReadableStreamDefaultController<Uint8Array> | undefined;
  const headers: Headers[] = [];
  const previous = globalThis.fetch;
  vi.stubGlobal('fetch', async (input: RequestInfo | URL, init: RequestInit = {}) => {
    if (!String(input).endsWith('/live')) return previous(input, init);
    headers.push(new Headers(init.headers));
    const body = new ReadableStream<Uint8Array>({
      start(started) {
        controller = started;
        started.enqueue(encoder.encode(': connected\n\n'));
      },
    });
    return new Response(body, { status: 200, headers: { 'Content-Type': 'text/event-stream' } });
  });
  return {
    headers,
    send(events: LiveEvent[]) {
      for (const item of events) {
        controller?.enqueue(
          encoder.encode(`id: ${item.id}\nevent: event\ndata: ${JSON.stringify(item)}\n\n`),
        );
      }
    },
  };
}

describe('Live screen', { timeout: 15_000 }, () => {
  it('shows the last 30 minutes and each event as it arrives, newest first', async () => {
    logIn();
    const project = buildProject();
    mockApi({
      'GET /projects': json(200, { projects: [project] }),
      'POST /api/graphql': json(200, {
        data: {
          liveActivity: {
            from: '2026-11-24T11:31:00.000Z',
            to: '2026-11-24T12:01:00.000Z',
            activeUsers: 12,
            activeWallets: 5,
            eventsPerMinute: [
              { from: '2026-11-24T11:59:00.000Z', to: '2026-11-24T12:00:00.000Z', value: 30 },
              { from: '2026-11-24T12:00:00.000Z', to: '2026-11-24T12:01:00.000Z', value: 4 },
            ],
          },
        },
      }),
    });
    const stream = serveLiveStream();
    renderApp(`/console/${project.id}/live`);

    expect(await screen.findByRole('heading', { name: 'Live' }, { timeout: 10_000 })).toBeTruthy();
    await waitFor(() => expect(screen.getByText('Waiting for events.', { exact: false })).toBeTruthy());
    // The session goes in the Authorization header, never in the URL.
    expect(stream.headers[0]?.get('authorization')).toMatch(/^Bearer /);
    const tile = (label: string) => screen.getByText(label).closest('div') as HTMLElement;
    await waitFor(() => expect(within(tile('Active users')).getByText('12')).toBeTruthy());
    expect(within(tile('Active wallets')).getByText('5')).toBeTruthy();
    expect(within(tile('Events')).getByText('34')).toBeTruthy();

    stream.send([
      event({ id: 'ev_1' }),
      event({
        id: 'ev_2',
        type: 'tx',
        txStage: 'submitted',
        txHash: `0x${'ab'.repeat(32)}`,
        wallet: `0x${'1'.repeat(40)}`,
      }),
    ]);
    const list = await screen.findByRole('list', { name: 'Latest events' });
    await waitFor(() => expect(within(list).getAllByRole('listitem')).toHaveLength(2));
    const [newest, oldest] = within(list).getAllByRole('listitem');
    expect(newest?.textContent).toContain('Transaction submitted');
    expect(oldest?.textContent).toContain('Page view');
    expect(oldest?.textContent).toContain('/swap');
    expect(screen.getByText('Live', { selector: '[role="status"]' })).toBeTruthy();
  });
});
