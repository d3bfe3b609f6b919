// The documentation site (VitePress), served by the product at /docs/. Its pages are the markdown files of
// docs/ themselves (one source), plus the pages docs/.vitepress/reference.mjs generates from
// docs/openapi.json, docs/graphql-schema.graphql and docs/decisions/. `npm run build:docs` builds it into
// docs/.vitepress/dist (part of `npm run build` and of the first `npm start`). Its theme is VitePress's
// default with colours that pass WCAG 2.1 AA (theme/custom.css).
import { defineConfig } from 'vitepress';
import { REPOSITORY_FILES, repositoryFilePage } from './reference.mjs';

/**
 * Links written for the repository (README sections the site includes, the SDK's README, files outside
 * docs/) pointed at from the site: the pages that hold the same text here.
 */
const REPOSITORY_LINKS: [RegExp, string][] = [
  [/^(\.\.\/)?README\.md#(configuration|geo-ip|metrics|operating)$/, '/self-hosting#$2'],
  [/^(\.\.\/)?README\.md(#.*)?$/, '/self-hosting'],
  [/^(\.\.\/)?packages\/sdk\/README\.md(#.*)?$/, '/sdk$2'],
  // The API definitions: their rendered references.
  [/^(\.\/)?(docs\/)?graphql-schema\.graphql$/, '/reference/graphql'],
  [/^(\.\/)?(docs\/)?openapi\.json$/, '/reference/rest-api'],
  // The decision records' folder: the page that lists them.
  [/^(\.\.\/|\.\/)?(docs\/)?decisions\/?$/, '/decisions/'],
  // README sections included in self-hosting.md link to docs/… from the repository's root.
  [/^docs\/(.*)$/, '/$1'],
  // The repository's files the pages name: the generated page that shows each one (reference.mjs).
  ...REPOSITORY_FILES.map(([path]): [RegExp, string] => [
    new RegExp(`^(\\.\\.\\/)?${path.replace(/[.]/g, '\\.')}$`),
    `/reference/files/${repositoryFilePage(path)}`,
  ]),
];

export default defineConfig({
  title: 'Polyflow',
  description: "Polyflow's documentation: the SDK, the metrics, the APIs and running your own server.",
  base: '/docs/',
  lang: 'en',
  head: [['link', { rel: 'icon', type: 'image/svg+xml', href: '/docs/favicon.svg' }]],
  // The page that the generated REST reference includes, and the generated field tables, are fragments.
  srcExclude: ['reference/event-fields.md', 'README.md'],
  // The generated list of decision records is the records' folder's own page: /docs/decisions/, beside them.
  rewrites: { 'reference/decisions.md': 'decisions/index.md' },
  lastUpdated: false,
  // The page metadata in a script file rather than inline: the server's Content-Security-Policy allows no
  // inline script but VitePress's two fixed ones, by hash (apps/server/src/http/docs-site.ts).
  metaChunk: true,
  // Files of the repository outside the site (deploy/, .env.example, source files) are not pages;
  // localhost is the reader's own server.
  ignoreDeadLinks: [
    /^https?:\/\/(localhost|127\.0\.0\.1)\b/,
    /^\.\.\//,
    /\.env\.example$/,
    /^\/api\//,
    /^\.?\/?(deploy|examples|apps|packages|e2e|scripts)\//,
    /(LICENSE|CHANGELOG\.md)$/,
    // Any other file of the repository (source, configuration): not a page of the site.
    /\.(?!md$|html$)[a-z]+$/i,
  ],
  markdown: {
    // GitHub's high-contrast themes: every token of the default ones is not at 4.5:1 on the code block
    // (strings 4.28:1, keywords 4.23:1 in the light scheme, comments 3.75:1 in the dark: WCAG 2.1 AA, SC 1.4.3).
    theme: { light: 'github-light-high-contrast', dark: 'github-dark-high-contrast' },
    config(md) {
      md.core.ruler.push('polyflow-repository-links', (state) => {
        for (const block of state.tokens) {
          for (const token of block.children ?? []) {
            if (token.type !== 'link_open') continue;
            const href = token.attrGet('href');
            if (!href || /^[a-z]+:/.test(href)) continue;
            for (const [pattern, target] of REPOSITORY_LINKS) {
              if (pattern.test(href)) {
                token.attrSet('href', href.replace(pattern, target));
                break;
              }
            }
          }
        }
      });
    },
  },
  themeConfig: {
    logo: '/favicon.svg',
    search: { provider: 'local' },
    nav: [
      { text: 'Getting started', link: '/getting-started' },
      { text: 'SDK', link: '/sdk' },
      { text: 'API', link: '/reference/rest-api' },
      { text: 'Self-hosting', link: '/self-hosting' },
    ],
    sidebar: [
      {
        text: 'Start',
        items: [
          { text: 'Getting started', link: '/getting-started' },
          { text: 'SDK reference', link: '/sdk' },
          { text: 'Wire format', link: '/wire-format' },
        ],
      },
      {
        text: 'What the console shows',
        items: [
          { text: 'Analytics definitions', link: '/analytics' },
          { text: 'Acquisition and incidents', link: '/acquisition-and-incidents' },
          { text: 'Releases', link: '/releases' },
          { text: 'Source maps and the CLI', link: '/source-maps' },
          { text: 'Wallets', link: '/wallets' },
          { text: 'Custom events and identify', link: '/custom-events' },
          { text: 'Custom funnels', link: '/funnels' },
          { text: 'Goals', link: '/goals' },
          { text: 'Live view', link: '/live' },
          { text: 'Data access and privacy', link: '/data-access-and-privacy' },
          { text: 'Teams: members, roles, audit log', link: '/teams' },
          { text: 'Time zone and annotations', link: '/timezone' },
          { text: 'Alerts and reports', link: '/alerts' },
          { text: 'Email reports', link: '/reports' },
        ],
      },
      {
        text: 'APIs',
        items: [
          { text: 'REST API (OpenAPI)', link: '/reference/rest-api' },
          { text: 'GraphQL API', link: '/reference/graphql' },
        ],
      },
      {
        text: 'Running Polyflow',
        items: [
          { text: 'Self-hosting', link: '/self-hosting' },
          { text: 'Scaling', link: '/scaling' },
          { text: 'Troubleshooting', link: '/troubleshooting' },
        ],
      },
      // Not a collapsible group: VitePress makes such a group's heading a button holding another (its caret),
      // which axe refuses (nested-interactive, WCAG 4.1.2). The records are listed on a page of their own.
      {
        text: 'Design',
        items: [
          { text: 'Architecture', link: '/ARCHITECTURE' },
          { text: 'Decision records', link: '/decisions/' },
        ],
      },
    ],
    outline: { level: [2, 3] },
    footer: { message: 'Polyflow is MIT licensed. Country data: IP Geolocation by DB-IP (CC BY 4.0).' },
  },
});
