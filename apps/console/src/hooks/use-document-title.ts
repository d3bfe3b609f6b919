import { useEffect } from 'react';

/**
 * "Wallets · Shop · Polyflow": the screen first, then what it belongs to, so that a browser tab, the
 * history list and a screen reader's first words on a new page say which screen it is (WCAG 2.4.2).
 * Parts left out (a project still loading) are skipped.
 */
export function documentTitle(...parts: ReadonlyArray<string | null | undefined>): string {
  return [...parts.filter((part): part is string => Boolean(part?.trim())), 'Polyflow'].join(' · ');
}

/** Sets the page's title while the calling screen is shown; the next screen sets its own. */
export function useDocumentTitle(...parts: ReadonlyArray<string | null | undefined>): void {
  const title = documentTitle(...parts);
  useEffect(() => {
    document.title = title;
  }, [title]);
}
