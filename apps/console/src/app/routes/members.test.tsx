import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { PENDING_INVITATION_KEY } from '../../lib/storage';
import { buildProject, logIn } from '../../testing/fixtures';
import { json, mockApi } from '../../testing/mock-api';
import { renderApp } from '../../testing/render-app';

const member = (email: string, role: 'owner' | 'admin' | 'viewer') => ({
  userId: `user-${email.split('@')[0]}`,
  email,
  role,
  joinedAt: '2026-11-01T10:00:00.000Z',
});
const invitation = {
  id: 'inv-1',
  email: 'new@example.com',
  role: 'viewer',
  createdAt: '2026-11-02T10:00:00.000Z',
  expiresAt: '2026-11-09T10:00:00.000Z',
};

describe('Members screen', () => {
  it('gives the owner the invite form, role changes, removal and the transfer to an admin', async () => {
    logIn({ email: 'ada@example.com' });
    const project = buildProject({ name: 'Shop', role: 'owner' });
    const base = `/projects/${project.id}`;
    const api = mockApi({
      'GET /projects': json(200, { projects: [project] }),
      [`GET ${base}/members`]: json(200, {
        members: [
          member('ada@example.com', 'owner'),
          member('bob@example.com', 'admin'),
          member('cy@example.com', 'viewer'),
        ],
        invitations: [invitation],
      }),
      [`POST ${base}/invitations`]: json(201, {
        id: 'inv-2',
        email: 'dee@example.com',
        role: 'admin',
        expiresAt: invitation.expiresAt,
      }),
      [`PATCH ${base}/members/user-cy`]: json(200, member('cy@example.com', 'admin')),
    });
    const { user } = renderApp(`/console/${project.id}/members`);
    const members = await screen.findByRole('list', { name: 'Members' });
    expect(within(members).getByRole('button', { name: 'Make bob@example.com the owner' })).toBeTruthy();
    expect(within(members).queryByRole('button', { name: 'Remove ada@example.com' })).toBeNull();
    expect(within(members).getByRole('button', { name: 'Remove cy@example.com' })).toBeTruthy();
    expect(within(members).queryByRole('button', { name: 'Leave' })).toBeNull();

    const roleOfCy = within(members).getByLabelText('Role of cy@example.com');
    // Choosing (as an arrow key on a closed select does in Chromium) changes nothing yet: Save does.
    await user.selectOptions(roleOfCy, 'admin');
    expect(api.calls(`PATCH ${base}/members/user-cy`)).toHaveLength(0);
    await user.selectOptions(roleOfCy, 'viewer');
    expect(within(members).queryByRole('button', { name: 'Save the role of cy@example.com' })).toBeNull();
    await user.selectOptions(roleOfCy, 'admin');
    await user.click(within(members).getByRole('button', { name: 'Save the role of cy@example.com' }));
    await waitFor(() => expect(api.calls(`PATCH ${base}/members/user-cy`)).toHaveLength(1));
    expect(api.calls(`PATCH ${base}/members/user-cy`)[0]?.body).toEqual({ role: 'admin' });
    // The change is said, and focus is back on the select once Save is gone.
    await waitFor(() =>
      expect(screen.getByTestId('announcer').textContent).toBe('cy@example.com is now Admin'),
    );
    await waitFor(() => expect(document.activeElement).toBe(roleOfCy));

    await user.type(screen.getByLabelText('Email address'), 'dee@example.com');
    await user.selectOptions(screen.getByLabelText('Role'), 'admin');
    await user.click(screen.getByRole('button', { name: 'Send invitation' }));
    expect(
      await screen.findByText('Invitation sent to dee@example.com. The link works once, for 7 days.'),
    ).toBeTruthy();
    expect(api.calls(`POST ${base}/invitations`)[0]?.body).toEqual({
      email: 'dee@example.com',
      role: 'admin',
    });
    const pending = screen.getByRole('list', { name: 'Pending invitations' });
    expect(
      within(pending).getByRole('button', { name: 'Revoke the invitation to new@example.com' }),
    ).toBeTruthy();
  }, 20_000);

  it('after revoking an invitation, focuses the next one’s Revoke button, else the empty state, and says so', async () => {
    logIn({ email: 'ada@example.com' });
    const project = buildProject({ name: 'Shop', role: 'owner' });
    const base = `/projects/${project.id}`;
    let invitations = [invitation, { ...invitation, id: 'inv-2', email: 'eve@example.com' }];
    const revoke = (id: string) => () => {
      invitations = invitations.filter((pending) => pending.id !== id);
      return json(204);
    };
    mockApi({
      'GET /projects': json(200, { projects: [project] }),
      [`GET ${base}/members`]: () =>
        json(200, { members: [member('ada@example.com', 'owner')], invitations }),
      [`DELETE ${base}/invitations/inv-1`]: revoke('inv-1'),
      [`DELETE ${base}/invitations/inv-2`]: revoke('inv-2'),
    });
    const { user } = renderApp(`/console/${project.id}/members`);
    const pending = await screen.findByRole('list', { name: 'Pending invitations' });

    await user.click(
      within(pending).getByRole('button', { name: 'Revoke the invitation to new@example.com' }),
    );
    const next = within(pending).getByRole('button', { name: 'Revoke the invitation to eve@example.com' });
    await waitFor(() => expect(document.activeElement).toBe(next));
    expect(within(pending).queryByText('new@example.com')).toBeNull();
    await waitFor(() =>
      expect(screen.getByTestId('announcer').textContent).toBe('Invitation to new@example.com revoked'),
    );

    await user.click(next);
    const empty = await screen.findByText('No pending invitations.');
    await waitFor(() => expect(document.activeElement).toBe(empty.closest('p')));
  });

  it('after removing a member, focuses the next member’s Remove button and says so', async () => {
    logIn({ email: 'ada@example.com' });
    const project = buildProject({ name: 'Shop', role: 'owner' });
    const base = `/projects/${project.id}`;
    let team = [
      member('ada@example.com', 'owner'),
      member('bob@example.com', 'admin'),
      member('cy@example.com', 'viewer'),
    ];
    mockApi({
      'GET /projects': json(200, { projects: [project] }),
      [`GET ${base}/members`]: () => json(200, { members: team, invitations: [] }),
      [`DELETE ${base}/members/user-bob`]: () => {
        team = team.filter((listed) => listed.userId !== 'user-bob');
        return json(204);
      },
    });
    const { user } = renderApp(`/console/${project.id}/members`);
    const members = await screen.findByRole('list', { name: 'Members' });
    await user.click(within(members).getByRole('button', { name: 'Remove bob@example.com' }));
    const dialog = await screen.findByRole('dialog');
    await user.click(within(dialog).getByRole('button', { name: /Remove/ }));
    await waitFor(() => expect(within(members).queryByText('bob@example.com')).toBeNull());
    await waitFor(() =>
      expect(document.activeElement).toBe(
        within(members).getByRole('button', { name: 'Remove cy@example.com' }),
      ),
    );
    await waitFor(() => expect(screen.getByTestId('announcer').textContent).toBe('bob@example.com removed'));
  });

  it('shows a viewer the team without controls, but lets them leave', async () => {
    logIn({ email: 'cy@example.com' });
    const project = buildProject({ name: 'Shop', role: 'viewer' });
    mockApi({
      'GET /projects': json(200, { projects: [project] }),
      [`GET /projects/${project.id}/members`]: json(200, {
        members: [member('ada@example.com', 'owner'), member('cy@example.com', 'viewer')],
        invitations: [invitation],
      }),
    });
    renderApp(`/console/${project.id}/members`);
    const members = await screen.findByRole('list', { name: 'Members' });
    expect(screen.queryByLabelText('Email address')).toBeNull();
    expect(within(members).queryByRole('combobox')).toBeNull();
    expect(within(members).queryByRole('button', { name: /Remove/ })).toBeNull();
    expect(within(members).getByRole('button', { name: 'Leave' })).toBeTruthy();
    expect(screen.queryByRole('button', { name: /Revoke the invitation/ })).toBeNull();
    const sidebar = screen.getByRole('navigation', { name: 'Console' });
    expect(within(sidebar).queryByRole('link', { name: 'Audit log' })).toBeNull();
  });
});

describe('/invite', () => {
  it('keeps the token without a session and offers to sign up or log in', async () => {
    mockApi({});
    renderApp('/invite?token=abc_DEF-123');
    expect(await screen.findByRole('heading', { name: 'Join a project' })).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Sign up' }).getAttribute('href')).toBe('/?signup');
    await waitFor(() =>
      expect(JSON.parse(window.localStorage.getItem(PENDING_INVITATION_KEY) ?? 'null')).toBe('abc_DEF-123'),
    );
  });

  it('accepts a kept invitation once logged in and opens the project', async () => {
    logIn({ email: 'cy@example.com' });
    window.localStorage.setItem(PENDING_INVITATION_KEY, JSON.stringify('abc_DEF-123'));
    const project = buildProject({ name: 'Shop', role: 'viewer' });
    const api = mockApi({
      'POST /invitations/accept': json(200, project),
      'GET /projects': json(200, { projects: [project] }),
      'POST /api/graphql': json(200, { data: null }),
    });
    const { location } = renderApp('/console/analytics');
    await waitFor(() => expect(location()).toBe(`/console/${project.id}/analytics`));
    expect(api.calls('POST /invitations/accept')[0]?.body).toEqual({ token: 'abc_DEF-123' });
    expect(window.localStorage.getItem(PENDING_INVITATION_KEY)).toBeNull();
  });
});
