/**
 * Pages of the documentation site that the server serves at /docs/ (VitePress, built from the repository's
 * docs/*.md): the console's "Read the Docs" and each screen's help link go there. A test checks that each
 * page exists in docs/.
 */
export const DOCS = {
  home: '/docs/',
  gettingStarted: '/docs/getting-started.html',
  analytics: '/docs/analytics.html',
  acquisition: '/docs/acquisition-and-incidents.html#funnel-acquisitionfunnel',
  incidents: '/docs/acquisition-and-incidents.html#incidents',
  live: '/docs/live.html',
  wallet: '/docs/wallets.html#the-wallet-page',
  wallets: '/docs/wallets.html#the-wallets-list',
  customEvents: '/docs/custom-events.html',
  funnels: '/docs/funnels.html',
  sdk: '/docs/sdk.html',
  alerts: '/docs/alerts.html',
  sourceMaps: '/docs/source-maps.html',
  dataAccess: '/docs/data-access-and-privacy.html',
  graphql: '/docs/reference/graphql.html',
  troubleshooting: '/docs/troubleshooting.html',
} as const;

export type DocsPage = keyof typeof DOCS;
