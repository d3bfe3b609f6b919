import { focusSoon } from '../../lib/announce';

interface Removal {
  /** The list whose items carry `data-item-key`. */
  list: () => HTMLElement | null | undefined;
  /** The `data-item-key` of the item that went away. */
  removedKey: string;
  /** Its position in the list before it went away. */
  index: number;
  /** The control of an item to focus (its Remove button); the item itself when omitted or missing. */
  control?: string;
  /** Where focus goes when the list is empty: its heading or empty state. */
  fallback: () => HTMLElement | null | undefined;
}

/** About a second of frames: a list refetched after the change can take a few to drop the item. */
const MAX_FRAMES = 60;

/**
 * After an item of a list went away (deleted, revoked), focuses the same control of the item that took its
 * place, else of the one before it, else `fallback`, so focus does not fall to the page's body and the next
 * Tab does not start over at the top (WCAG 2.4.3). Waits until the render has dropped the item, so focus
 * does not land on the leaving item itself.
 */
export function focusAfterRemoval({ list, removedKey, index, control, fallback }: Removal): void {
  let frames = 0;
  const items = () => [...(list()?.querySelectorAll<HTMLElement>('[data-item-key]') ?? [])];
  const attempt = () => {
    if (items().some((item) => item.dataset.itemKey === removedKey) && frames++ < MAX_FRAMES) {
      requestAnimationFrame(attempt);
      return;
    }
    focusSoon(() => {
      const remaining = items().filter((item) => item.dataset.itemKey !== removedKey);
      const item = remaining[Math.min(index, remaining.length - 1)];
      if (!item) return fallback();
      return (control ? item.querySelector<HTMLElement>(control) : null) ?? item;
    });
  };
  attempt();
}

/** The element with this id, for a focus target that the render puts in place. */
export const byId = (id: string) => () => document.getElementById(id);
