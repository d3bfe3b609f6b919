import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { logIn } from '../../../testing/fixtures';
import { json, mockApi } from '../../../testing/mock-api';
import { AnnotationsCard } from './annotations-card';

const PROJECT_ID = 'project-42';
const PATH = `/projects/${PROJECT_ID}/annotations`;

function renderCard() {
  const api = mockApi({
    [`GET ${PATH}`]: json(200, { annotations: [] }),
    [`POST ${PATH}`]: ({ body }) =>
      json(201, {
        id: 'a-1',
        endDate: null,
        ...(body as object),
        createdBy: 'owner@example.com',
        createdAt: '2026-01-01T00:00:00.000Z',
      }),
  });
  const queryClient = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  render(
    <QueryClientProvider client={queryClient}>
      <AnnotationsCard projectId={PROJECT_ID} onError={vi.fn()} />
    </QueryClientProvider>,
  );
  const form = screen.getByRole('form', { name: 'Add an annotation' });
  const field = (label: string) => within(form).getByLabelText(label) as HTMLInputElement;
  const add = within(form).getByRole('button', { name: 'Add annotation' });
  const posts = () => api.requests.filter((request) => request.method === 'POST');
  return { user: userEvent.setup(), form, field, add, posts };
}

/** The message an invalid field is described by (Input links it with aria-describedby). */
const messageOf = (input: HTMLInputElement) =>
  document.getElementById(input.getAttribute('aria-describedby') ?? '')?.textContent;

describe('the annotations form', () => {
  beforeEach(() => logIn({ validUntil: '2030-01-01T00:00:00.000Z' }));

  it('keeps Add enabled and, on submit, says what is wrong under the field and moves focus there', async () => {
    const { user, field, add, posts } = renderCard();
    expect(add.hasAttribute('disabled')).toBe(false);
    expect(field('Note').getAttribute('aria-invalid')).toBeNull();

    await user.click(add);
    await waitFor(() => expect(document.activeElement).toBe(field('Note')));
    expect(field('Note').getAttribute('aria-invalid')).toBe('true');
    expect(messageOf(field('Note'))).toBe('Write a note.');

    await user.type(field('Note'), 'Deployed v2.1');
    fireEvent.change(field('Until (optional)'), { target: { value: '2000-01-01' } });
    await user.click(add);
    await waitFor(() => expect(document.activeElement).toBe(field('Until (optional)')));
    expect(messageOf(field('Until (optional)'))).toBe('The end date is before the start date.');
    expect(field('Note').getAttribute('aria-invalid')).toBeNull();
    expect(posts()).toHaveLength(0);
  });

  it('refuses a date past a year from today, as the server does, and adds a valid one', async () => {
    const { user, field, add, posts } = renderCard();
    await user.type(field('Note'), 'Typo');
    fireEvent.change(field('Date'), { target: { value: '9999-12-31' } });
    await user.click(add);
    await waitFor(() => expect(document.activeElement).toBe(field('Date')));
    expect(messageOf(field('Date'))).toMatch(
      /^The date must be from 2015-01-01 to \d{4}-\d{2}-\d{2} \(a year after today\)\.$/,
    );
    expect(posts()).toHaveLength(0);

    fireEvent.change(field('Date'), { target: { value: '2026-03-02' } });
    await user.click(add);
    await waitFor(() => expect(posts()).toHaveLength(1));
    expect(posts()[0]?.body).toEqual({ text: 'Typo', startDate: '2026-03-02', endDate: null });
    await waitFor(() => expect(field('Note').value).toBe(''));
    expect(field('Date').getAttribute('aria-invalid')).toBeNull();
  });

  it('after deleting an annotation, focuses the next one’s Delete button, else the empty state, and says so', async () => {
    let annotations = ['a-1', 'a-2'].map((id, index) => ({
      id,
      text: `Note ${id}`,
      startDate: `2026-01-0${index + 1}`,
      endDate: null,
      createdBy: 'owner@example.com',
      createdAt: '2026-01-01T00:00:00.000Z',
    }));
    mockApi({
      [`GET ${PATH}`]: () => json(200, { annotations }),
      [`DELETE ${PATH}/a-1`]: () => {
        annotations = annotations.filter((annotation) => annotation.id !== 'a-1');
        return json(204);
      },
      [`DELETE ${PATH}/a-2`]: () => {
        annotations = annotations.filter((annotation) => annotation.id !== 'a-2');
        return json(204);
      },
    });
    const queryClient = new QueryClient({ defaultOptions: { queries: { retry: false } } });
    render(
      <QueryClientProvider client={queryClient}>
        <AnnotationsCard projectId={PROJECT_ID} onError={vi.fn()} />
      </QueryClientProvider>,
    );
    const user = userEvent.setup();
    const list = await screen.findByRole('list', { name: 'Annotations' });
    // Newest first: a-2 (Jan 2) above a-1 (Jan 1).
    const [first, second] = within(list).getAllByRole('button');
    await user.click(first as HTMLElement);
    await waitFor(() => expect(within(list).getAllByRole('button')).toHaveLength(1));
    await waitFor(() => expect(document.activeElement).toBe(second));
    await waitFor(() =>
      expect(screen.getByTestId('announcer').textContent).toMatch(/^Annotation of .+ deleted$/),
    );

    await user.click(second as HTMLElement);
    const empty = await screen.findByText('No annotations yet.');
    await waitFor(() => expect(document.activeElement).toBe(empty));
  });
});
