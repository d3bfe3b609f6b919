import { render, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { ConfirmDialog } from './confirm-dialog';
import { MessageModal } from './message-modal';

// Focus opens on a dialog's first control (its Close button): what a screen reader reads then is the dialog's
// name and description, so the message or the consequences must be that description.
describe('Dialog descriptions', () => {
  it("the generic modal is described by its message: an error is read out when it opens, not only 'Error'", () => {
    render(
      <MessageModal
        content={{ title: 'Error', message: 'Enter a domain such as example.com.', type: 'error' }}
        onClose={() => {}}
      />,
    );
    const dialog = screen.getByRole('dialog', {
      name: 'Error',
      description: 'Enter a domain such as example.com.',
    });
    expect(dialog.contains(document.activeElement)).toBe(true);
  });

  it('a confirmation is described by what it stops, not by its buttons', () => {
    render(
      <ConfirmDialog
        isOpen
        title="Revoke the API key?"
        confirmLabel="Revoke"
        onConfirm={() => {}}
        onCancel={() => {}}
      >
        <p>Events sent with this key are refused at once.</p>
      </ConfirmDialog>,
    );
    expect(
      screen.getByRole('dialog', {
        name: 'Revoke the API key?',
        description: 'Events sent with this key are refused at once.',
      }),
    ).toBeTruthy();
  });
});
