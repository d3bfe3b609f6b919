import type { RefObject } from 'react';
import { focusAfterRemoval } from '../../../components/ui/focus-after-removal';
import { announce, focusSoon } from '../../../lib/announce';

/**
 * Where focus goes in a card of tokens (read tokens, write tokens), which the dialogs cannot give it back
 * to: the Revoke button went with its row, and Create token is disabled once its field is empty again.
 */
export function tokenListFocus(
  kind: 'Read' | 'Write',
  refs: {
    list: RefObject<HTMLUListElement | null>;
    emptyState: RefObject<HTMLElement | null>;
    nameField: RefObject<HTMLInputElement | null>;
  },
) {
  return {
    /** Says the token was revoked and focuses the next token's Revoke button, else the empty state. */
    revoked(token: { id: string; name: string }, index: number) {
      announce(`${kind} token ${token.name} revoked`);
      focusAfterRemoval({
        list: () => refs.list.current,
        removedKey: token.id,
        index,
        control: 'button',
        fallback: () => refs.emptyState.current,
      });
    },
    /** Focuses the new token's row (its Revoke button is next), else the name field. */
    created(id: string | undefined) {
      focusSoon(
        () =>
          (id === undefined
            ? null
            : refs.list.current?.querySelector<HTMLElement>(`[data-item-key="${CSS.escape(id)}"]`)) ??
          refs.nameField.current,
      );
    },
  };
}
