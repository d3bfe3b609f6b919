import type { LiveEvent } from '@polyflow/contracts/live';
import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { catchCsvDownloads } from '../../../testing/csv-downloads';
import { buildProject, logIn } from '../../../testing/fixtures';
import { json, mockApi } from '../../../testing/mock-api';
import { renderApp } from '../../../testing/render-app';
import { describeEvent } from '../lib/describe-event';

const event = (overrides: Partial<LiveEvent>): LiveEvent => ({
  id: 'ev_1',
  type: 'page_view',
  eventName: null,
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

describe('describeEvent', () => {
  it('calls a custom event one, not by its bare code', () => {
    expect(describeEvent(event({ type: 'custom' })).title).toBe('Custom event');
    // By its name, as the wallet timeline and the incident trail call it.
    expect(describeEvent(event({ type: 'custom', eventName: 'swap_clicked' })).title).toBe(
      'Custom event swap_clicked',
    );
    expect(describeEvent(event({ type: 'identify' })).title).toBe('User identified');
  });
});

describe('Live screen', { timeout: 15_000 }, () => {
  it('shows the last 30 minutes and each event as it arrives, newest first', async () => {
    logIn();
    const downloads = catchCsvDownloads();
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
    const { user } = renderApp(`/console/${project.id}/live`);

    expect(await screen.findByRole('heading', { name: 'Live' }, { timeout: 10_000 })).toBeTruthy();
    await waitFor(() => expect(screen.getByText('Waiting for events.', { exact: false })).toBeTruthy());
    // The session goes in the Authorization header, never in the URL.
    expect(stream.headers[0]?.get('authorization')).toMatch(/^Bearer /);
    // The tiles' labels, not the sidebar's links of the same name ("Events").
    const tile = (label: string) =>
      screen
        .getAllByText(label)
        .find((element) => !element.closest('nav'))
        ?.closest('div') as HTMLElement;
    await waitFor(() => expect(within(tile('Active users')).getByText('12')).toBeTruthy());
    expect(within(tile('Active wallets')).getByText('5')).toBeTruthy();
    expect(within(tile('Events')).getByText('34')).toBeTruthy();
    // Events in the last 30 minutes but none since the page opened: the stream has no replay, and says so
    // rather than suggesting a broken integration.
    expect(screen.getByText(/Only events that arrive after you opened this page show here/)).toBeTruthy();
    expect(screen.getByText(/The tiles above count the 34 events of the last 30 minutes/)).toBeTruthy();
    expect(screen.queryByText(/Nothing arriving\?/)).toBeNull();

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

    // Download CSV: the tiles, the bars and the list, each file what its card shows.
    const saved = async (name: string) => {
      await user.click(screen.getByRole('button', { name: `Download CSV: ${name}` }));
      const [file, ...more] = await downloads.take();
      expect(more).toHaveLength(0);
      return file as NonNullable<typeof file>;
    };
    const tiles = await saved('Right now');
    expect(tiles.fileName).toBe('my-dapp_live_right-now_2026-11-24_2026-11-24.csv');
    expect(tiles.records).toEqual([
      ['from', 'to', 'active_users', 'active_wallets', 'events'],
      ['2026-11-24T11:31:00.000Z', '2026-11-24T12:01:00.000Z', '12', '5', '34'],
    ]);
    const bars = await saved('Events per minute');
    expect(bars.records).toEqual([
      ['minute_from', 'minute_to', 'events'],
      ['2026-11-24T11:59:00.000Z', '2026-11-24T12:00:00.000Z', '30'],
      ['2026-11-24T12:00:00.000Z', '2026-11-24T12:01:00.000Z', '4'],
    ]);
    const latest = await saved('Latest events');
    const [header, ...lines] = latest.records;
    expect(header).toEqual([
      'time',
      'received_at',
      'type',
      'title',
      'detail',
      'wallet',
      'country',
      'user_id',
      'session_id',
      'id',
    ]);
    // Newest first, as the list; each line's title and detail are the words on screen.
    expect(lines.map((line) => line[9])).toEqual(['ev_2', 'ev_1']);
    lines.forEach(([, , , title = '', detail = '', wallet = '', country = ''], index) => {
      const item = within(list).getAllByRole('listitem')[index]?.textContent ?? '';
      expect(item).toContain(title);
      expect(item).toContain(detail);
      if (wallet) expect(item).toContain(`${wallet.slice(0, 6)}…${wallet.slice(-4)}`);
      expect(item).toContain(country);
    });
    expect(lines[0]?.slice(2, 6)).toEqual([
      'tx',
      describeEvent(event({ type: 'tx', txStage: 'submitted' })).title,
      describeEvent(
        event({
          type: 'tx',
          txStage: 'submitted',
          txHash: `0x${'ab'.repeat(32)}`,
          wallet: `0x${'1'.repeat(40)}`,
        }),
      ).detail ?? '',
      `0x${'1'.repeat(40)}`,
    ]);
    expect(lines[1]?.slice(2, 5)).toEqual(['page_view', 'Page view', '/swap']);
  });

  it('points to the SDK settings when the last 30 minutes saw no event either', async () => {
    logIn();
    const project = buildProject();
    mockApi({
      'GET /projects': json(200, { projects: [project] }),
      'POST /api/graphql': json(200, {
        data: {
          liveActivity: {
            from: '2026-11-24T11:31:00.000Z',
            to: '2026-11-24T12:01:00.000Z',
            activeUsers: 0,
            activeWallets: 0,
            eventsPerMinute: [{ from: '2026-11-24T12:00:00.000Z', to: '2026-11-24T12:01:00.000Z', value: 0 }],
          },
        },
      }),
    });
    serveLiveStream();
    renderApp(`/console/${project.id}/live`);
    expect(await screen.findByText(/Nothing arriving\?/, {}, { timeout: 10_000 })).toBeTruthy();
    expect(screen.getByRole('link', { name: 'SDK settings' })).toBeTruthy();
    expect(screen.queryByText(/The tiles above count/)).toBeNull();
  });
});
