import type { Goal } from '@polyflow/contracts/goals';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { buildProject, logIn } from '../../../testing/fixtures';
import { json } from '../../../testing/mock-api';
import { renderApp } from '../../../testing/render-app';
import { data, graphqlError, serveGraphql } from '../../../testing/serve-graphql';
import { analyticsAnswers } from '../testing/builders';

const goal = (id: string, name: string, extra: Partial<Goal> = {}): Goal => ({
  id,
  name,
  kind: 'event',
  eventName: 'signup',
  propertyKey: null,
  propertyValue: null,
  pathPattern: null,
  createdBy: 'owner@example.com',
  createdAt: '2025-06-01T00:00:00.000Z',
  ...extra,
});
const SIGNUP = goal('g1', 'Signed up');
const DOCS = goal('g2', 'Docs', { kind: 'path', eventName: null, pathPattern: '/docs/**' });

const conversions = (rows: [Goal, number, number | null][], users: number) =>
  data({
    goalConversions: {
      users,
      goals: rows.map(([g, count, rate]) => ({ goal: g, conversions: count, rate })),
    },
  });

const goalsCard = async () =>
  // The first test of the file also loads the lazy screen.
  (await screen.findByRole('heading', { name: 'Goals' }, { timeout: 20_000 })).closest(
    'section',
  ) as HTMLElement;

/** A phone may wrap it only at its seams (<wbr>), never inside a word (break-all, wrap-anywhere). */
const wrapsAtSeams = (element: Element) => {
  for (let node: Element | null = element; node; node = node.parentElement) {
    expect(node.className.toString()).not.toMatch(/break-all|wrap-anywhere/);
    if (node.tagName === 'TABLE') break;
  }
  expect(element.querySelector('wbr')).not.toBeNull();
};

describe('Goals card', { timeout: 40_000 }, () => {
  it('shows each goal’s converted users, rate and change against the previous period', async () => {
    logIn();
    const project = buildProject();
    const api = serveGraphql([project], {
      ...analyticsAnswers,
      goalConversions: (variables) =>
        variables.previous
          ? conversions(
              [
                [SIGNUP, 10, 0.1],
                [DOCS, 0, 0],
              ],
              100,
            )
          : conversions(
              [
                [SIGNUP, 15, 0.25],
                [DOCS, 3, 0.05],
              ],
              60,
            ),
    });
    renderApp(`/console/${project.id}/analytics`);
    const card = await goalsCard();
    const signup = await within(card).findByRole('row', { name: /Signed up/ });
    expect(signup.textContent).toContain('Event signup');

    expect(within(signup).getAllByRole('cell')[1]?.textContent).toMatch(/^15/);
    expect(within(signup).getAllByRole('cell')[2]?.textContent).toBe('25%');
    await waitFor(() => expect(within(signup).getByTestId('change').dataset.direction).toBe('up'));
    const docs = within(card).getByRole('row', { name: /Docs/ });
    expect(docs.textContent).toContain('Page /docs/**');
    wrapsAtSeams(
      within(docs).getByText((_, element) => element?.textContent === 'Page /docs/**', { selector: 'p' }),
    );
    // 0 before: nothing to compare with.
    expect(within(docs).getByTestId('change').dataset.direction).toBe('none');
    expect(api.currentCallsOf('goalConversions')[0]?.variables).toMatchObject({ projectId: project.id });
  });

  it('says so without goals, and offers Manage goals only to admins and the owner', async () => {
    logIn();
    const viewer = buildProject({ role: 'viewer' });
    serveGraphql([viewer], { ...analyticsAnswers, goalConversions: conversions([], 5) });
    renderApp(`/console/${viewer.id}/analytics`);
    const card = await goalsCard();
    await within(card).findByText('No goals yet. An admin or the owner can add them.');
    expect(within(card).queryByRole('button', { name: 'Manage goals' })).toBeNull();
  });

  it('opens Manage goals from the empty card', async () => {
    logIn();
    const project = buildProject();
    serveGraphql(
      [project],
      { ...analyticsAnswers, goalConversions: conversions([], 5) },
      {
        [`GET /projects/${project.id}/goals`]: json(200, { goals: [] }),
      },
    );
    renderApp(`/console/${project.id}/analytics`);
    const card = await goalsCard();
    await within(card).findByText(/No goals yet. Add one/);
    await userEvent.setup().click(within(card).getByRole('button', { name: 'Manage goals' }));
    const dialog = await screen.findByRole('dialog', { name: 'Manage goals' });
    await within(dialog).findByText('No goals yet.');
  });

  it('shows an error with a retry', async () => {
    logIn();
    const project = buildProject();
    serveGraphql([project], {
      ...analyticsAnswers,
      goalConversions: graphqlError('boom', 'INTERNAL_SERVER_ERROR'),
    });
    renderApp(`/console/${project.id}/analytics`);
    const card = await goalsCard();
    await within(card).findByText(/Could not load this chart/);
    expect(within(card).getByRole('button', { name: /Try again|Retry/ })).toBeTruthy();
  });

  it('adds a goal by keyboard with inline errors, and asks before deleting one', async () => {
    logIn();
    const project = buildProject();
    const goals: Goal[] = [SIGNUP];
    const posted: unknown[] = [];
    const deleted: string[] = [];
    serveGraphql(
      [project],
      { ...analyticsAnswers, goalConversions: conversions([[SIGNUP, 1, 0.5]], 2) },
      {
        [`GET /projects/${project.id}/goals`]: () => json(200, { goals }),
        [`POST /projects/${project.id}/goals`]: (request) => {
          posted.push(request.body);
          const created = goal('g3', 'Docs intro', {
            kind: 'path',
            eventName: null,
            pathPattern: '/docs/*/intro',
          });
          goals.push(created);
          return json(201, created);
        },
        [`DELETE /projects/${project.id}/goals/g1`]: () => {
          deleted.push('g1');
          goals.splice(
            goals.findIndex((item) => item.id === 'g1'),
            1,
          );
          return json(204);
        },
      },
    );
    const user = userEvent.setup();
    renderApp(`/console/${project.id}/analytics`);
    const card = await goalsCard();
    await user.click(await within(card).findByRole('button', { name: 'Manage goals' }));
    const dialog = await screen.findByRole('dialog', { name: 'Manage goals' });
    await within(dialog).findByText('Signed up');

    await user.type(within(dialog).getByLabelText('Goal name'), 'Docs intro');
    await user.click(within(dialog).getByLabelText('visits a page'));
    const pattern = within(dialog).getByLabelText('Page path pattern');
    await user.type(pattern, 'docs/*/intro');
    within(dialog).getByRole('button', { name: 'Add goal' }).focus();
    await user.keyboard('{Enter}');
    expect(pattern.getAttribute('aria-invalid')).toBe('true');
    // Refused from the button, focus goes back to the field in error, so its error is read out.
    await waitFor(() => expect(document.activeElement).toBe(pattern));
    expect(within(dialog).getByText('The pattern must start with /.')).toBeTruthy();
    expect(posted).toEqual([]);
    await user.clear(pattern);
    await user.type(pattern, '/docs/*/intro{Enter}');
    await waitFor(() =>
      expect(posted).toEqual([{ name: 'Docs intro', kind: 'path', pathPattern: '/docs/*/intro' }]),
    );
    await within(dialog).findByText('Docs intro');
    // Focus stays in the dialog, in the emptied form ready for another goal, and the change is said.
    await waitFor(() => expect(document.activeElement).toBe(within(dialog).getByLabelText('Goal name')));
    await waitFor(() => expect(screen.getByTestId('announcer').textContent).toBe('Goal Docs intro added'));

    await user.click(within(dialog).getByRole('button', { name: 'Delete the goal Signed up' }));
    const confirm = await screen.findByRole('dialog', { name: 'Delete this goal?' });
    await user.click(within(confirm).getByRole('button', { name: 'Cancel' }));
    expect(deleted).toEqual([]);
    await user.click(within(dialog).getByRole('button', { name: 'Delete the goal Signed up' }));
    await user.click(
      within(await screen.findByRole('dialog', { name: 'Delete this goal?' })).getByRole('button', {
        name: 'Delete goal',
      }),
    );
    await waitFor(() => expect(deleted).toEqual(['g1']));
    // The deleted goal's row is gone: focus goes to the next goal's delete button, not the page's body.
    await waitFor(() => expect(within(dialog).queryByText('Signed up')).toBeNull());
    await waitFor(() =>
      expect(document.activeElement).toBe(
        within(dialog).getByRole('button', { name: 'Delete the goal Docs intro' }),
      ),
    );
    await waitFor(() => expect(screen.getByTestId('announcer').textContent).toBe('Goal Signed up deleted'));
    await user.keyboard('{Escape}');
    await waitFor(() => expect(screen.queryByRole('dialog', { name: 'Manage goals' })).toBeNull());
  });

  it('edits a goal by keyboard with the same checks, shows the server’s refusal, and can cancel', async () => {
    logIn();
    const project = buildProject();
    const goals: Goal[] = [SIGNUP, DOCS];
    const put: unknown[] = [];
    serveGraphql(
      [project],
      { ...analyticsAnswers, goalConversions: conversions([[SIGNUP, 1, 0.5]], 2) },
      {
        [`GET /projects/${project.id}/goals`]: () => json(200, { goals }),
        [`PUT /projects/${project.id}/goals/g1`]: (request) => {
          put.push(request.body);
          if (put.length === 1) {
            return json(400, {
              errorCode: 'INVALID_REQUEST_BODY',
              message: 'Invalid request body: the server refused this goal.',
            });
          }
          const changed = goal('g1', 'Bought pro', { propertyKey: 'plan', propertyValue: 'pro' });
          goals[0] = changed;
          return json(200, changed);
        },
      },
    );
    const user = userEvent.setup();
    renderApp(`/console/${project.id}/analytics`);
    const card = await goalsCard();
    await user.click(await within(card).findByRole('button', { name: 'Manage goals' }));
    const dialog = await screen.findByRole('dialog', { name: 'Manage goals' });
    const edit = await within(dialog).findByRole('button', { name: 'Edit the goal Signed up' });
    edit.focus();
    await user.keyboard('{Enter}');
    // The form holds the goal and has the focus.
    await within(dialog).findByRole('heading', { name: 'Edit “Signed up”' });
    const name = within(dialog).getByLabelText('Goal name') as HTMLInputElement;
    await waitFor(() => expect(document.activeElement).toBe(name));
    expect(name.value).toBe('Signed up');
    expect((within(dialog).getByLabelText('Custom event name') as HTMLInputElement).value).toBe('signup');

    // The creation form's checks and messages.
    await user.clear(name);
    await user.type(within(dialog).getByLabelText('Property (optional)'), 'plan{Enter}');
    expect(within(dialog).getByText('Name the goal.')).toBeTruthy();
    expect(within(dialog).getByText('Enter the value, or clear the property.')).toBeTruthy();
    expect(put).toEqual([]);

    await user.type(name, 'Bought pro');
    await user.type(within(dialog).getByLabelText('Property value'), 'pro{Enter}');
    const refusal = await within(dialog).findByText(/the server refused this goal/);
    expect(refusal.closest('[role="alert"]')).toBeTruthy();
    await user.click(within(dialog).getByRole('button', { name: 'Save goal' }));
    const body = {
      name: 'Bought pro',
      kind: 'event',
      eventName: 'signup',
      propertyKey: 'plan',
      propertyValue: 'pro',
    };
    await waitFor(() => expect(put).toEqual([body, body]));
    // Saved: the list shows the change and the form adds again.
    await within(dialog).findByText('Bought pro');
    await within(dialog).findByRole('heading', { name: 'Add a goal' });
    expect((within(dialog).getByLabelText('Goal name') as HTMLInputElement).value).toBe('');

    // Cancel leaves the goal as it is.
    await user.click(within(dialog).getByRole('button', { name: 'Edit the goal Docs' }));
    expect((within(dialog).getByLabelText('Page path pattern') as HTMLInputElement).value).toBe('/docs/**');
    await user.click(within(dialog).getByRole('button', { name: 'Cancel edit' }));
    await within(dialog).findByRole('heading', { name: 'Add a goal' });
    expect(put).toHaveLength(2);
  });
});
