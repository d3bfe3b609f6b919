import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { logIn } from '../../../testing/fixtures';
import { apiError, mockApi } from '../../../testing/mock-api';
import { ChannelForm } from './channel-form';

describe('ChannelForm', () => {
  it("marks the URL as the field in error when the server refuses its address, described by the server's message", async () => {
    logIn();
    mockApi({
      'POST /projects/p-1/alert-channels': apiError(
        400,
        'WEBHOOK_ADDRESS_REFUSED',
        '127.0.0.1 is a loopback address; only public addresses can be reached',
      ),
    });
    const user = userEvent.setup();
    render(
      <QueryClientProvider client={new QueryClient({ defaultOptions: { mutations: { retry: false } } })}>
        <ChannelForm projectId="p-1" members={[]} onCreated={() => {}} onCancel={() => {}} />
      </QueryClientProvider>,
    );
    await user.selectOptions(screen.getByLabelText('Type'), 'webhook');
    await user.type(screen.getByLabelText('Name'), 'Receiver');
    const url = screen.getByRole('textbox', { name: 'URL' });
    await user.type(url, 'http://127.0.0.1:9/hook');
    await user.click(screen.getByRole('button', { name: 'Add channel' }));

    const refusal = await screen.findByRole('alert');
    expect(refusal.textContent).toContain('loopback address');
    await waitFor(() => expect(document.activeElement).toBe(url));
    expect(url.getAttribute('aria-invalid')).toBe('true');
    expect(url.getAttribute('aria-describedby')?.split(' ')).toContain(refusal.id);
    // The hint stays linked beside it.
    expect(
      screen.getByRole('textbox', { name: 'URL', description: /loopback address.*private and loopback/ }),
    ).toBe(url);

    // Another address has not been refused yet.
    await user.type(url, 'x');
    expect(url.getAttribute('aria-invalid')).toBeNull();
    expect(screen.queryByRole('alert')).toBeNull();
  });
});
