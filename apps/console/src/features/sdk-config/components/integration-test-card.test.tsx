import type { IntegrationStatus } from '@polyflow/contracts/integration';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { act, fireEvent, render, screen } from '@testing-library/react';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { logIn } from '../../../testing/fixtures';
import { apiError, json, mockApi, type Reply } from '../../../testing/mock-api';
import { IntegrationTestCard } from './integration-test-card';

const PROJECT_ID = 'project-42';
const PATH = `GET /projects/${PROJECT_ID}/integration`;

function status(overrides: Partial<IntegrationStatus> = {}): IntegrationStatus {
  return {
    hasApiKey: true,
    whitelistedDomains: ['shop.example'],
    eventsSince: 0,
    lastEvent: null,
    origins: [],
    ...overrides,
  };
}

/** Answers the pre-test request (no `since`) with `before` and each test poll with the next reply. */
function serveIntegration(before: Reply, polls: Reply[]) {
  let poll = 0;
  return mockApi({
    [PATH]: ({ path }) => {
      if (!path.includes('since=')) return before;
      const reply = polls[Math.min(poll, polls.length - 1)] as Reply;
      poll += 1;
      return reply;
    },
  });
}

// Fake clocks: TanStack Query notifies through setTimeout, so every step advances time a little.
const advance = (ms: number) => act(() => vi.advanceTimersByTimeAsync(ms));
const testPolls = (api: ReturnType<typeof mockApi>) =>
  api.requests.filter((request) => request.path.includes('since='));

function renderCard() {
  const queryClient = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  render(
    <QueryClientProvider client={queryClient}>
      <IntegrationTestCard projectId={PROJECT_ID} />
    </QueryClientProvider>,
  );
}

async function startTest() {
  fireEvent.click(screen.getByRole('button', { name: 'Start test' }));
  await advance(10);
}

describe('Test SDK Integration', () => {
  beforeEach(() => {
    vi.useFakeTimers({ now: new Date('2025-06-01T12:00:00.000Z') });
    logIn({ validUntil: '2030-01-01T00:00:00.000Z' });
  });

  it('shows the last event seen before any test', async () => {
    const lastEvent = {
      receivedAt: '2025-06-01T11:58:00.000Z',
      origin: 'https://shop.example',
      type: 'page_view',
    };
    serveIntegration(json(200, status({ lastEvent })), []);
    renderCard();
    await advance(10);
    expect(screen.getByText(/Last event seen: Page view from https:\/\/shop.example at/)).toBeTruthy();
  });

  it('names a custom event as every other screen does, not by a bare "Custom"', async () => {
    const lastEvent = {
      receivedAt: '2025-06-01T11:58:00.000Z',
      origin: 'https://shop.example',
      type: 'custom',
    };
    serveIntegration(json(200, status({ lastEvent })), []);
    renderCard();
    await advance(10);
    expect(screen.getByText(/Last event seen: Custom event from https:\/\/shop.example at/)).toBeTruthy();
  });

  it('says plainly when the project has no API key, with a progress bar and countdown', async () => {
    const api = serveIntegration(json(200, status({ hasApiKey: false })), [
      json(200, status({ hasApiKey: false })),
    ]);
    renderCard();
    await advance(10);
    expect(screen.getByText('No events received yet.')).toBeTruthy();
    const startedAt = new Date().toISOString();
    await startTest();

    expect(screen.getByText(/No API key yet/)).toBeTruthy();
    expect(screen.getByRole('progressbar', { name: 'Test progress' })).toBeTruthy();
    expect(screen.getByText('60 s left')).toBeTruthy();
    expect(testPolls(api)[0]?.path).toBe(
      `/projects/${PROJECT_ID}/integration?since=${encodeURIComponent(startedAt)}`,
    );
    await advance(2000);
    expect(testPolls(api)).toHaveLength(2);
    expect(screen.getByText('58 s left')).toBeTruthy();
  });

  it('says when no domain is whitelisted', async () => {
    serveIntegration(json(200, status()), [json(200, status({ whitelistedDomains: [] }))]);
    renderCard();
    await startTest();
    expect(screen.getByText(/No whitelisted domain/)).toBeTruthy();
  });

  it('reports the first batch and keeps watching the 60 s it announced: later batches move the figures', async () => {
    const arrived = (events: number, at: string, type: string) => {
      const lastEvent = { receivedAt: at, origin: 'https://shop.example', type };
      return json(
        200,
        status({
          eventsSince: events,
          lastEvent,
          origins: [{ origin: 'https://shop.example', events, lastReceivedAt: at }],
        }),
      );
    };
    const api = serveIntegration(json(200, status()), [
      json(200, status()),
      arrived(3, '2025-06-01T12:00:01.000Z', 'wallet_connected'),
      arrived(3, '2025-06-01T12:00:01.000Z', 'wallet_connected'),
      arrived(8, '2025-06-01T12:00:05.000Z', 'tx'),
    ]);
    renderCard();
    await startTest();
    expect(screen.getByText(/Waiting for events/)).toBeTruthy();

    await advance(2000);
    expect(
      screen.getByText(/^Received 3 events from https:\/\/shop.example, last at .* Still watching/),
    ).toBeTruthy();
    expect(screen.getByRole('progressbar')).toBeTruthy();
    expect(screen.getByText(/Last event seen: Wallet connected from https:\/\/shop.example/)).toBeTruthy();

    // The second batch: the count and the last event follow instead of freezing on the first.
    await advance(4000);
    expect(screen.getByText(/^Received 8 events from https:\/\/shop.example/)).toBeTruthy();
    expect(screen.getByText(/Last event seen: Transaction from https:\/\/shop.example/)).toBeTruthy();

    await advance(60_000);
    expect(screen.queryByRole('progressbar')).toBeNull();
    expect(screen.getByText(/^Received 8 events/)).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Run the test again' })).toBeTruthy();
    const polls = testPolls(api).length;
    // Every 2 s for the 60 s, then no more.
    expect(polls).toBeGreaterThanOrEqual(29);
    await advance(10_000);
    expect(testPolls(api)).toHaveLength(polls);
  });

  it('gives up after 60 seconds', async () => {
    const api = serveIntegration(json(200, status()), [json(200, status())]);
    renderCard();
    await startTest();
    await advance(59_000);
    expect(screen.getByText(/Waiting for events/)).toBeTruthy();
    await advance(1_000);
    expect(screen.getByText(/No events arrived in 60 seconds/)).toBeTruthy();
    const polls = testPolls(api).length;
    expect(polls).toBeGreaterThanOrEqual(29);
    expect(polls).toBeLessThanOrEqual(31);
    await advance(10_000);
    expect(testPolls(api)).toHaveLength(polls);
  });

  it('stops on a 404 and keeps retrying through network failures', async () => {
    const api = serveIntegration(json(200, status()), [
      'network-error',
      apiError(404, 'RESOURCE_NOT_FOUND', 'Not found'),
    ]);
    renderCard();
    await startTest();
    expect(screen.getByText(/Could not reach the server/)).toBeTruthy();
    await advance(2000);
    expect(screen.getByText(/not available for this project \(404\)/)).toBeTruthy();
    await advance(10_000);
    expect(testPolls(api)).toHaveLength(2);
  });
});
