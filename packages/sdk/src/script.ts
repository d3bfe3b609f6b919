import { attach } from './index.ts';

/**
 * Entry of the script-tag build (`/sdk.js`):
 * `<script src="https://POLYFLOW_HOST/sdk.js" data-api-key="KEY"></script>`, before the dapp's own scripts
 * (README: load order).
 * Attaches with `data-api-key`, sending to `data-host` or else to the origin the script came from;
 * `window.Polyflow.attach` stays available for pages that attach themselves, beside `track` and `identify`.
 */
try {
  const script = document.currentScript as HTMLScriptElement | null;
  const apiKey = script?.dataset.apiKey;
  (window as unknown as { Polyflow: unknown }).Polyflow = {
    attach,
    ...(script && apiKey && attach(apiKey, { host: script.dataset.host || new URL(script.src).origin })),
  };
} catch {}
