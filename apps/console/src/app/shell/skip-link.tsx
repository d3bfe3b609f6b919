import type { MouseEvent } from 'react';

/** The id of the console's `<main>`, the skip link's target. */
export const MAIN_ID = 'main-content';

/**
 * The page's first Tab stop, shown only while focused: it moves focus past the promo banner, the navbar
 * and the sidebar's dozen links (on a phone they wrap above the screen) to the screen's own heading
 * (WCAG 2.4.1).
 * Focus is moved by hand rather than by the fragment: a `#main-content` in the URL would be kept by every
 * link and filter that copies the location, and a `<main>` is not focusable by itself.
 */
export function SkipLink() {
  const skip = (event: MouseEvent<HTMLAnchorElement>) => {
    const main = document.getElementById(MAIN_ID);
    if (!main) return;
    event.preventDefault();
    const target = main.querySelector<HTMLElement>('h1') ?? main;
    if (!target.hasAttribute('tabindex')) target.setAttribute('tabindex', '-1');
    target.focus();
    target.scrollIntoView({ block: 'start' });
  };
  return (
    <a
      href={`#${MAIN_ID}`}
      onClick={skip}
      className="sr-only focus:not-sr-only focus:fixed focus:top-2 focus:left-2 focus:z-50 focus:rounded-lg focus:bg-white focus:px-4 focus:py-2 focus:text-sm focus:font-semibold focus:text-indigo-800 focus:shadow-lg focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-indigo-600"
    >
      Skip to content
    </a>
  );
}
