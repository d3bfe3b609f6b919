import { screen, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { USER_KEY } from '../../../lib/storage';
import { buildSession } from '../../../testing/fixtures';
import { apiError, json, mockApi, spyOnAlert } from '../../../testing/mock-api';
import { renderApp } from '../../../testing/render-app';

describe('Verify with a token', () => {
  it('prefills the code, confirms it and shows the success state with a Log in link', async () => {
    const session = buildSession({ email: 'grace@example.com' });
    const api = mockApi({ 'POST /register/verify': json(200, session) });
    const { user } = renderApp('/verify?token=abc123');

    expect(await screen.findByRole('heading', { name: 'Please verify your email' })).toBeTruthy();
    expect(screen.getByLabelText<HTMLInputElement>('Verification code').value).toBe('abc123');
    await user.click(screen.getByRole('button', { name: 'Confirm' }));

    expect(await screen.findByText('Succesfully verified email.')).toBeTruthy();
    // Confirm went with the form: focus goes to the success screen's heading, which reads it out.
    await waitFor(() =>
      expect(document.activeElement).toBe(screen.getByRole('heading', { name: 'Email verified' })),
    );
    expect(screen.getByRole('link', { name: 'Log in' }).getAttribute('href')).toBe('/');
    expect(api.calls('POST /register/verify')[0]?.body).toEqual({ token: 'abc123' });
    expect(JSON.parse(window.localStorage.getItem(USER_KEY) ?? 'null')).toEqual(session);
  });

  it('shows the server’s message inline, as the login form does, and changes nothing else when the token is refused', async () => {
    mockApi({
      'POST /register/verify': apiError(400, 'USER_SECURE_TOKEN_INVALID', 'This link has expired.'),
    });
    const alert = spyOnAlert();
    const { user } = renderApp('/verify?token=old');
    await user.click(await screen.findByRole('button', { name: 'Confirm' }));

    const error = await screen.findByRole('alert');
    expect(error.textContent).toBe('This link has expired.');
    expect(alert).not.toHaveBeenCalled();
    const field = screen.getByLabelText<HTMLInputElement>('Verification code');
    expect(field.value).toBe('old');
    // The error is the field's: it is invalid and described by the message (WCAG 3.3.1).
    expect(field.getAttribute('aria-invalid')).toBe('true');
    expect(field.getAttribute('aria-describedby')?.split(' ')).toContain(error.id);
    expect(screen.getByRole('heading', { name: 'Please verify your email' })).toBeTruthy();
    expect(screen.queryByText('Succesfully verified email.')).toBeNull();
    expect(window.localStorage.getItem(USER_KEY)).toBeNull();
  });
});

describe('Verify with an email', () => {
  it('says where the email went and resends it', async () => {
    const api = mockApi({ 'POST /register/resend': json(204) });
    const { user } = renderApp('/verify?email=grace%40example.com');

    expect(await screen.findByRole('heading', { name: 'You must verify your email' })).toBeTruthy();
    expect(screen.getByText('Check grace@example.com for a verification link or code.')).toBeTruthy();
    // Spec §1's warning, where an unverified user actually is (the console never lets one in).
    expect(screen.getByText('In order to use Polyflow, you must verify your email!')).toBeTruthy();
    await user.click(screen.getByRole('button', { name: 'Resend verification email' }));

    expect(await screen.findByText('We sent a new verification email to grace@example.com.')).toBeTruthy();
    expect(api.calls('POST /register/resend')[0]?.body).toEqual({ email: 'grace@example.com' });
  });

  it('shows a resend failure inline', async () => {
    mockApi({ 'POST /register/resend': apiError(429, 'RATE_LIMITED', 'Too many emails.') });
    const alert = spyOnAlert();
    const { user } = renderApp('/verify?email=grace%40example.com');
    await user.click(await screen.findByRole('button', { name: 'Resend verification email' }));

    expect((await screen.findByRole('alert')).textContent).toBe('Too many emails.');
    expect(alert).not.toHaveBeenCalled();
    expect(screen.queryByText(/We sent a new verification email/)).toBeNull();
  });

  it('also accepts a pasted code', async () => {
    const api = mockApi({ 'POST /register/verify': json(200, buildSession()) });
    const { user } = renderApp('/verify?email=grace%40example.com');
    const confirm = await screen.findByRole<HTMLButtonElement>('button', { name: 'Confirm' });
    expect(confirm.disabled).toBe(true);
    await user.type(screen.getByLabelText('Verification code'), 'pasted-code{Enter}');

    expect(await screen.findByText('Succesfully verified email.')).toBeTruthy();
    expect(api.calls('POST /register/verify')[0]?.body).toEqual({ token: 'pasted-code' });
  });

  it('sends a typed short code with the email it already knows', async () => {
    const api = mockApi({ 'POST /register/verify': json(200, buildSession()) });
    const { user } = renderApp('/verify?email=grace%40example.com');
    expect(screen.queryByLabelText('Email')).toBeNull();
    await user.type(await screen.findByLabelText('Verification code'), 'abcd-efgh{Enter}');

    expect(await screen.findByText('Succesfully verified email.')).toBeTruthy();
    expect(api.calls('POST /register/verify')[0]?.body).toEqual({
      email: 'grace@example.com',
      code: 'ABCDEFGH',
    });
  });

  it('shows a wrong short code’s message inline and stays on the form', async () => {
    mockApi({
      'POST /register/verify': apiError(400, 'USER_SECURE_CODE_INVALID', 'This code is wrong.'),
    });
    const alert = spyOnAlert();
    const { user } = renderApp('/verify?email=grace%40example.com');
    await user.type(await screen.findByLabelText('Verification code'), 'WXYZ2345{Enter}');

    const error = await screen.findByRole('alert');
    expect(error.textContent).toBe('This code is wrong.');
    expect(alert).not.toHaveBeenCalled();
    const field = screen.getByLabelText<HTMLInputElement>('Verification code');
    expect(field.value).toBe('WXYZ2345');
    // Invalid, and described by both its hint and the error.
    expect(field.getAttribute('aria-invalid')).toBe('true');
    const described = (field.getAttribute('aria-describedby') ?? '').split(' ');
    expect(described).toContain(error.id);
    expect(described.map((id) => document.getElementById(id)?.textContent)).toContain(
      'The 8-character code from the email, like ABCD-EFGH.',
    );
    expect(window.localStorage.getItem(USER_KEY)).toBeNull();
  });
});

describe('Verify with neither', () => {
  it('asks for the email before it sends a short code', async () => {
    const api = mockApi({ 'POST /register/verify': json(200, buildSession()) });
    const { user } = renderApp('/verify');
    await user.type(await screen.findByLabelText('Verification code'), 'ABCD EFGH');
    const confirm = screen.getByRole<HTMLButtonElement>('button', { name: 'Confirm' });
    expect(confirm.disabled).toBe(true);

    await user.type(screen.getByLabelText('Email'), 'ada@example.com');
    await user.click(confirm);

    expect(await screen.findByText('Succesfully verified email.')).toBeTruthy();
    expect(api.calls('POST /register/verify')[0]?.body).toEqual({
      email: 'ada@example.com',
      code: 'ABCDEFGH',
    });
  });
});
