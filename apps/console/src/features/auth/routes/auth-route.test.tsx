import { screen, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { CURRENT_PROJECT_KEY, USER_KEY } from '../../../lib/storage';
import { buildProject, buildSession } from '../../../testing/fixtures';
import { apiError, json, mockApi, spyOnAlert } from '../../../testing/mock-api';
import { renderApp } from '../../../testing/render-app';

const button = (name: string) => screen.getByRole<HTMLButtonElement>('button', { name });

describe('Log In', () => {
  it('is the default form and keeps Log In disabled until the email and password are valid', async () => {
    mockApi({});
    const { user } = renderApp('/');
    const email = await screen.findByLabelText('Email');
    expect(screen.getByRole('heading', { name: 'Log In' })).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Forgot your password?' }).getAttribute('href')).toBe(
      '/forgot-password',
    );
    expect(
      screen.getByRole('link', { name: "Don't have an account? Sign up here" }).getAttribute('href'),
    ).toBe('/?signup');
    expect(button('Log In').disabled).toBe(true);

    await user.type(email, 'not-an-email');
    await user.type(screen.getByLabelText('Password'), 'longenough');
    expect(await screen.findByText('Enter a valid email address')).toBeTruthy();
    expect(button('Log In').disabled).toBe(true);

    await user.clear(email);
    await user.type(email, 'ada@example.com');
    await user.clear(screen.getByLabelText('Password'));
    await user.type(screen.getByLabelText('Password'), 'short');
    expect(await screen.findByText('Use at least 8 characters')).toBeTruthy();
    expect(button('Log In').disabled).toBe(true);

    await user.type(screen.getByLabelText('Password'), 'er!');
    await waitFor(() => expect(button('Log In').disabled).toBe(false));
  });

  it('shows the server message above the button and clears the password on failure', async () => {
    const api = mockApi({ 'POST /login': apiError(401, 'BAD_AUTHENTICATION', 'Wrong email or password.') });
    // biome-ignore lint/suspicious/noDocumentCookie: the XSRF cookie is what the console reads.
    document.cookie = 'XSRF-TOKEN=xsrf-123; path=/';
    const { user, location } = renderApp('/');
    await user.type(await screen.findByLabelText('Email'), 'ada@example.com');
    await user.type(screen.getByLabelText('Password'), 'wrong-password');
    await user.click(button('Log In'));

    expect((await screen.findByRole('alert')).textContent).toContain('Wrong email or password.');
    expect(screen.getByLabelText<HTMLInputElement>('Password').value).toBe('');
    // The form emptied the field itself: no "Password is required" under the server's message.
    expect(screen.queryByText('Password is required')).toBeNull();
    expect(screen.getAllByRole('alert')).toHaveLength(1);
    expect(button('Log In').disabled).toBe(true);
    // Log In went disabled under the keyboard's focus: the emptied field takes it, with the message as its
    // description, rather than the page's body.
    const password = screen.getByLabelText<HTMLInputElement>('Password');
    await waitFor(() => expect(document.activeElement).toBe(password));
    expect(password.getAttribute('aria-describedby')).toBe(screen.getByRole('alert').id);
    expect(location()).toBe('/');
    const [login] = api.calls('POST /login');
    expect(login?.body).toEqual({ email: 'ada@example.com', password: 'wrong-password' });
    expect(login?.headers.get('X-XSRF-TOKEN')).toBe('xsrf-123');
    expect(login?.headers.get('Authorization')).toBeNull();
  });

  it('sends an unverified user to the verify screen with the email', async () => {
    mockApi({
      'POST /login': apiError(
        403,
        'USER_NOT_YET_VERIFIED',
        'This account is not verified yet. Check your email.',
      ),
    });
    const { user, location } = renderApp('/');
    await user.type(await screen.findByLabelText('Email'), 'ada@example.com');
    await user.type(screen.getByLabelText('Password'), 'correct-horse');
    await user.click(button('Log In'));

    expect(await screen.findByRole('heading', { name: 'You must verify your email' })).toBeTruthy();
    expect(location()).toBe('/verify?email=ada%40example.com');
  });

  it('stores the session, clears the current project and opens the console on success', async () => {
    window.localStorage.setItem(CURRENT_PROJECT_KEY, JSON.stringify(buildProject()));
    const session = buildSession();
    const api = mockApi({ 'POST /login': json(200, session), 'GET /projects': json(200, { projects: [] }) });
    const { user, location } = renderApp('/');
    await user.type(await screen.findByLabelText('Email'), 'ada@example.com');
    await user.type(screen.getByLabelText('Password'), 'correct-horse');
    await user.keyboard('{Enter}');

    expect(await screen.findByRole('dialog', { name: 'My Projects' })).toBeTruthy();
    expect(location()).toBe('/console/analytics');
    expect(JSON.parse(window.localStorage.getItem(USER_KEY) ?? 'null')).toEqual(session);
    expect(window.localStorage.getItem(CURRENT_PROJECT_KEY)).toBeNull();
    expect(api.calls('GET /projects')[0]?.headers.get('Authorization')).toBe(`Bearer ${session.token}`);
  });
});

describe('Log In from a deep link', () => {
  const logInAt = async (project: ReturnType<typeof buildProject>, path: string) => {
    const session = buildSession();
    mockApi({ 'POST /login': json(200, session), 'GET /projects': json(200, { projects: [project] }) });
    const view = renderApp(path);
    await view.user.type(await screen.findByLabelText('Email'), 'ada@example.com');
    await view.user.type(screen.getByLabelText('Password'), 'correct-horse');
    await view.user.keyboard('{Enter}');
    return view;
  };

  it('opens the page asked for before logging in: same project, screen and query', async () => {
    const project = buildProject();
    const next = `/console/${project.id}/wallets?sort=lastSeen`;
    const { location } = await logInAt(project, `/?next=${encodeURIComponent(next)}`);
    await waitFor(() => expect(location()).toBe(next));
  });

  it('ignores a return address that is not a console page of this app', async () => {
    const project = buildProject();
    const { location } = await logInAt(project, `/?next=${encodeURIComponent('//evil.example/console/x')}`);
    await waitFor(() => expect(location()).toBe(`/console/${project.id}/analytics`));
  });
});

describe('Sign Up', () => {
  it("has a title of its own, and the link to it focuses its heading (the link's form went away)", async () => {
    mockApi({});
    const { user, location } = renderApp('/');
    const toSignUp = await screen.findByRole('link', { name: "Don't have an account? Sign up here" });
    await waitFor(() => expect(document.title).toBe('Log In · Polyflow'));

    toSignUp.focus();
    await user.keyboard('{Enter}');
    expect(location()).toBe('/?signup');
    const heading = await screen.findByRole('heading', { name: 'Sign Up' });
    await waitFor(() => expect(document.activeElement).toBe(heading));
    await waitFor(() => expect(document.title).toBe('Sign Up · Polyflow'));

    screen.getByRole('link', { name: 'Already have an account? Log in here' }).focus();
    await user.keyboard('{Enter}');
    const logIn = await screen.findByRole('heading', { name: 'Log In' });
    await waitFor(() => expect(document.activeElement).toBe(logIn));
    await waitFor(() => expect(document.title).toBe('Log In · Polyflow'));
  });

  it('registers and goes to the verify screen', async () => {
    const api = mockApi({ 'POST /register': json(204) });
    const { user, location } = renderApp('/?signup');
    expect(await screen.findByRole('heading', { name: 'Sign Up' })).toBeTruthy();
    expect(button('Sign Up').disabled).toBe(true);
    await user.type(screen.getByLabelText('Email'), 'grace@example.com');
    await user.type(screen.getByLabelText('Password'), 'a-strong-password');
    await user.click(button('Sign Up'));

    expect(await screen.findByText('Check grace@example.com for a verification link or code.')).toBeTruthy();
    expect(location()).toBe('/verify?email=grace%40example.com');
    expect(api.calls('POST /register')[0]?.body).toEqual({
      email: 'grace@example.com',
      password: 'a-strong-password',
    });
  });

  it('shows the failure in the box and alerts it', async () => {
    mockApi({ 'POST /register': apiError(429, 'RATE_LIMITED', 'Too many attempts, try again later.') });
    const alert = spyOnAlert();
    const { user, location } = renderApp('/?signup');
    await user.type(await screen.findByLabelText('Email'), 'grace@example.com');
    await user.type(screen.getByLabelText('Password'), 'a-strong-password');
    await user.click(button('Sign Up'));

    expect((await screen.findByRole('alert')).textContent).toContain('Too many attempts, try again later.');
    expect(alert).toHaveBeenCalledWith('Too many attempts, try again later.');
    expect(location()).toBe('/?signup');
  });
});
