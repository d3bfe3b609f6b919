import type { Core } from './types.ts';
import { listen, safe, text } from './util.ts';

type HistoryMethod = 'pushState' | 'replaceState';

/**
 * Page views: the landing page, then every single-page-app route change (`history.pushState` /
 * `replaceState`, wrapped so they behave exactly as before, and `popstate`). Only the path is recorded:
 * query strings can hold tokens; the landing UTM parameters are read separately.
 */
export function watchPages(core: Core) {
  let lastPath: string | undefined;
  const view = safe(() => {
    if (location.pathname === lastPath) return;
    lastPath = location.pathname;
    core.emit({ type: 'page_view', title: text(document.title) || undefined });
  });
  for (const name of ['pushState', 'replaceState'] as HistoryMethod[]) {
    const original = history[name];
    const wrapper = function (this: History, ...args: Parameters<History[HistoryMethod]>) {
      const result = original.apply(this, args);
      view();
      return result;
    };
    history[name] = wrapper;
    core.undo.push(() => {
      // Someone wrapped it after us: restoring would drop their wrapper, so ours stays (it is transparent).
      if (history[name] === wrapper) history[name] = original;
    });
  }
  listen(core.undo, 'popstate', view);
  view();
}
