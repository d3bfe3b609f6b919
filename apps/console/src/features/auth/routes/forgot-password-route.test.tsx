import { screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { apiError, json, mockApi } from '../../../testing/mock-api';
import { renderApp } from '../../../testing/render-app';

describe('Forgot password', () => {
  it('is reached from the login form and asks for the email', async () => {
    const api = mockApi({ 'POST /forgot-password': json(204) });
    const { user, location } = renderApp('/');
    await user.click(await screen.findByRole('link', { name: 'Forgot your password?' }));
    expect(location()).toBe('/forgot-password');

    const send = await screen.findByRole<HTMLButtonElement>('button', { name: 'Send reset link' });
    expect(send.disabled).toBe(true);
    await user.type(screen.getByLabelText('Email'), 'ada@example.com{Enter}');

    expect(
      await screen.findByText(/If an account exists for ada@example.com, we sent it a link/),
    ).toBeTruthy();
    expect(api.calls('POST /forgot-password')[0]?.body).toEqual({ email: 'ada@example.com' });
  });

  it('sets a new password of at least 8 characters with the emailed token', async () => {
    const api = mockApi({ 'POST /forgot-password/reset': json(204) });
    const { user } = renderApp('/forgot-password?token=reset-token');
    const field = await screen.findByLabelText('New password');
    const submit = screen.getByRole<HTMLButtonElement>('button', { name: 'Set new password' });
    await user.type(field, 'short');
    expect(submit.disabled).toBe(true);
    await user.type(field, '-but-now-long');
    await user.click(submit);

    expect(await screen.findByText(/Your password has been changed/)).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Log in' }).getAttribute('href')).toBe('/');
    expect(api.calls('POST /forgot-password/reset')[0]?.body).toEqual({
      token: 'reset-token',
      newPassword: 'short-but-now-long',
    });
  });

  it('explains an expired link', async () => {
    mockApi({
      'POST /forgot-password/reset': apiError(
        400,
        'USER_SECURE_TOKEN_INVALID',
        'This link is invalid or expired.',
      ),
    });
    const { user } = renderApp('/forgot-password?token=used');
    await user.type(await screen.findByLabelText('New password'), 'long-enough-password{Enter}');

    expect((await screen.findByRole('alert')).textContent).toContain('This link is invalid or expired.');
    expect(screen.getByRole('link', { name: 'Request a new link' })).toBeTruthy();
  });
});
