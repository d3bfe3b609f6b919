import type * as Addon from './addon.ts';

/**
 * Loads the add-on (ADR 068). From the sources (tests): the module itself. build.mjs replaces this file: the
 * ESM build imports `./polyflow-addon.esm.js` beside it (the dapp's bundler makes it a chunk of its own), the
 * script build imports `${host}/sdk-addon.js`, which the Polyflow server serves like `/sdk.js`.
 */
export const loadAddon = (_host: string): Promise<typeof Addon> => import('./addon.ts');
