import { act, render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useEffect, useState } from 'react';
import { Link, MemoryRouter, Navigate, Route, Routes, useLocation } from 'react-router';
import { describe, expect, it } from 'vitest';
import { useRouteFocus } from './use-route-focus';

function RouteFocus() {
  useRouteFocus();
  return null;
}

function Screen({ title }: { title: string }) {
  return (
    <main>
      <h1>{title}</h1>
      <Link to="/wallets/0xabc">Open wallet 0xabc</Link>
      <Link to="/later">Open the slow screen</Link>
      <Link to="?period=30d">Last 30 days</Link>
    </main>
  );
}

/** A screen that shows its heading once its data is there. */
let showSlowScreen: (() => void) | null = null;
function SlowScreen() {
  const [isReady, setIsReady] = useState(false);
  useEffect(() => {
    showSlowScreen = () => setIsReady(true);
  }, []);
  return isReady ? <Screen title="Later" /> : <p>Loading…</p>;
}

function Search() {
  return <p>Query: {useLocation().search || 'none'}</p>;
}

function renderRoutes(path: string) {
  const user = userEvent.setup();
  render(
    <MemoryRouter initialEntries={[path]}>
      <RouteFocus />
      {/* Stays on every screen, as the console's sidebar does. */}
      <nav aria-label="Console">
        <Link to="/wallets">Wallets</Link>
      </nav>
      <Search />
      <Routes>
        <Route path="/" element={<Navigate to="/wallets" replace />} />
        <Route path="/wallets" element={<Screen title="Wallets" />} />
        <Route path="/wallets/:address" element={<Screen title="Wallet" />} />
        <Route path="/later" element={<SlowScreen />} />
      </Routes>
    </MemoryRouter>,
  );
  return { user };
}

const heading = (name: string) => screen.getByRole('heading', { name });
const nextFrame = () => new Promise((resolve) => requestAnimationFrame(() => setTimeout(resolve, 0)));

describe('useRouteFocus', () => {
  it("moves focus to the new screen's heading after a link in the page is followed", async () => {
    const { user } = renderRoutes('/wallets');
    screen.getByRole('link', { name: 'Open wallet 0xabc' }).focus();
    await user.keyboard('{Enter}');

    await waitFor(() => expect(document.activeElement).toBe(heading('Wallet')));
    expect(heading('Wallet').getAttribute('tabindex')).toBe('-1');
  });

  it('leaves focus on a link that is still there (the sidebar)', async () => {
    const { user } = renderRoutes('/wallets/0xabc');
    const sidebarLink = screen.getByRole('link', { name: 'Wallets' });
    sidebarLink.focus();
    await user.keyboard('{Enter}');

    expect(await screen.findByRole('heading', { name: 'Wallets' })).toBeTruthy();
    await nextFrame();
    expect(document.activeElement).toBe(sidebarLink);
  });

  it('does not move focus on the first load, its redirect included', async () => {
    renderRoutes('/');
    expect(await screen.findByRole('heading', { name: 'Wallets' })).toBeTruthy();
    await nextFrame();
    expect(document.activeElement).toBe(document.body);
  });

  it('does not move focus when only the query string changes', async () => {
    const { user } = renderRoutes('/wallets');
    const filter = screen.getByRole('link', { name: 'Last 30 days' });
    filter.focus();
    // Even with focus lost meanwhile (a filter control that went away), the screen is the same.
    filter.addEventListener('click', () => filter.blur());
    await user.keyboard('{Enter}');
    expect(await screen.findByText('Query: ?period=30d')).toBeTruthy();
    await nextFrame();
    expect(document.activeElement).toBe(document.body);
  });

  it('waits for a screen that is still loading, then focuses its heading', async () => {
    const { user } = renderRoutes('/wallets');
    screen.getByRole('link', { name: 'Open the slow screen' }).focus();
    await user.keyboard('{Enter}');
    expect(await screen.findByText('Loading…')).toBeTruthy();
    await nextFrame();
    expect(document.activeElement).toBe(document.body);

    act(() => showSlowScreen?.());
    await waitFor(() => expect(document.activeElement).toBe(heading('Later')));
  });
});
