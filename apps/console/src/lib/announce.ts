/**
 * The console's one live region: `announce` tells a screen reader what an action did when nothing else on
 * the page says it where focus is ("Domain removed", "Filter Country: Germany added"; WCAG 4.1.3). The
 * region is a visually hidden `role="status"` (polite) element appended to the page once. The text is
 * cleared and set again a frame later, so the same message twice is read twice.
 */
let region: HTMLElement | undefined;

function liveRegion(): HTMLElement {
  if (region?.isConnected) return region;
  region = document.createElement('div');
  region.setAttribute('role', 'status');
  region.setAttribute('aria-live', 'polite');
  region.setAttribute('aria-atomic', 'true');
  region.dataset.testid = 'announcer';
  region.className = 'sr-only';
  document.body.append(region);
  return region;
}

export function announce(message: string): void {
  const target = liveRegion();
  target.textContent = '';
  requestAnimationFrame(() => {
    target.textContent = message;
  });
}

/** How long `focusSoon` looks for its element, frame after frame, before it gives up. */
const FOCUS_WAIT_MS = 1_000;

/**
 * Moves focus to `element` once the render under way has run (a button that removed itself, a row that
 * went away): without it focus falls to the page's body and the next Tab starts over at the top
 * (WCAG 2.4.3). An element that is not focusable by itself (a heading, a list) gets `tabindex="-1"`. An
 * element a later render brings (rows of a page just fetched) is looked for again each frame, a second at
 * most, unless the person moves focus meanwhile.
 */
export function focusSoon(find: () => HTMLElement | null | undefined): void {
  const from = document.activeElement;
  const deadline = performance.now() + FOCUS_WAIT_MS;
  const look = () =>
    requestAnimationFrame(() => {
      // The person moved focus meanwhile: it stays where they put it.
      const current = document.activeElement;
      if (current !== from && current !== document.body && current !== null) return;
      const element = find();
      if (!element) {
        if (performance.now() < deadline) look();
        return;
      }
      if (element.tabIndex < 0 && !element.hasAttribute('tabindex')) element.setAttribute('tabindex', '-1');
      element.focus();
    });
  look();
}
