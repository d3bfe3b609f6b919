import { useEffect, useRef } from 'react';
import { useLocation, useNavigationType } from 'react-router';
import { focusSoon } from '../lib/announce';

/** How long a new screen may take to show its heading (a lazy chunk, then its first answer). */
const HEADING_WAIT_MS = 20_000;

/** Hidden by React while a Suspense boundary shows its fallback (`display: none`), or by `hidden`. */
function isShown(element: HTMLElement): boolean {
  for (let node: HTMLElement | null = element; node; node = node.parentElement) {
    if (node.hidden || node.style.display === 'none') return false;
  }
  return true;
}

function mainHeading(): HTMLElement | null {
  const headings = [...document.querySelectorAll<HTMLElement>('main h1'), ...document.querySelectorAll('h1')];
  return headings.find(isShown) ?? null;
}

/** Focus went with the element that had it (the link, the button that led away): the page's body has it. */
function isFocusLost(): boolean {
  const active = document.activeElement;
  return !active || active === document.body || active === document.documentElement;
}

/**
 * Focus a person keeps across screens: a link of the sidebar (or another navigation landmark) that they
 * follow one after another, which says itself "current page"; a dialog still open.
 */
function isFocusKept(element: Element | null): boolean {
  return !!element?.closest('nav, [role="dialog"]');
}

/**
 * After a move to another screen, focus goes to the new screen's main heading, which a screen reader then
 * reads (WCAG 2.4.3): without it focus stays on the body of the page when the link or button that was
 * followed goes away with the old screen, and nothing is said. Not when focus is on a sidebar link, and not
 * when the person has moved focus elsewhere while the new screen was loading.
 *
 * Not on the first load, redirects included (a person starts at the top of a new page; until they press a
 * key or a pointer nothing on the page is theirs to follow), and not on a change of the query string alone
 * (filters, periods, tabs kept in the URL), which keeps the screen.
 */
export function useRouteFocus(): void {
  const { pathname } = useLocation();
  const navigationType = useNavigationType();
  const shownPath = useRef<string | null>(null);
  const hasInteracted = useRef(false);
  const stopWaiting = useRef<(() => void) | null>(null);

  useEffect(() => {
    const interacted = () => {
      hasInteracted.current = true;
    };
    document.addEventListener('keydown', interacted, true);
    document.addEventListener('pointerdown', interacted, true);
    return () => {
      document.removeEventListener('keydown', interacted, true);
      document.removeEventListener('pointerdown', interacted, true);
      stopWaiting.current?.();
    };
  }, []);

  useEffect(() => {
    const previous = shownPath.current;
    shownPath.current = pathname;
    if (previous === null || previous === pathname) return;
    // The browser's Back and Forward buttons are outside the page: no key or pointer event reaches it.
    if (!hasInteracted.current && navigationType !== 'POP') return;

    // A redirect after a move (`console/analytics` → `console/:id/analytics`) starts the wait again.
    stopWaiting.current?.();
    const origin = document.activeElement;
    if (isFocusKept(origin)) return;
    const isFocusUntouched = () => isFocusLost() || document.activeElement === origin;
    const focusHeading = (): boolean => {
      const heading = mainHeading();
      if (!heading) return false;
      focusSoon(() => (isFocusUntouched() ? mainHeading() : null));
      return true;
    };
    if (focusHeading()) return;
    // The screen is still on its way (a lazy chunk, the shell's projects first). Focus that moves meanwhile
    // (the person tabbing, a dialog opening) ends the wait: it is not taken back later.
    const observer = new MutationObserver(() => {
      if (focusHeading()) stop();
    });
    const timer = window.setTimeout(() => stop(), HEADING_WAIT_MS);
    const stop = () => {
      observer.disconnect();
      window.clearTimeout(timer);
      document.removeEventListener('focusin', stop);
      stopWaiting.current = null;
    };
    observer.observe(document.body, {
      childList: true,
      subtree: true,
      attributes: true,
      attributeFilter: ['style', 'hidden'],
    });
    document.addEventListener('focusin', stop);
    stopWaiting.current = stop;
  }, [pathname, navigationType]);
}
