import { expect, test } from '@playwright/test';

// Every link of the documentation site that stays on this server opens something: each page reachable from
// /docs/ is read, and every address its links name (pages, the repository's files shown as pages, the API's
// documents) answers below 400. An outside reader found links to `.env.example`, `deploy/…` and the OpenAPI
// document that answered 404.
test('every link of the documentation site to this server opens', async ({ request, baseURL }) => {
  const origin = new URL(baseURL ?? '').origin;
  const seen = new Set<string>(['/docs/']);
  const queue = ['/docs/'];
  const broken: string[] = [];
  const pathOf = (href: string, page: string) => new URL(href, origin + page);
  while (queue.length > 0) {
    const page = queue.shift() as string;
    const answer = await request.get(page);
    if (answer.status() >= 400) {
      broken.push(`${answer.status()} ${page}`);
      continue;
    }
    if (!(answer.headers()['content-type'] ?? '').includes('text/html')) continue;
    const html = await answer.text();
    for (const [, href] of html.matchAll(/href="([^"#]*)(?:#[^"]*)?"/g)) {
      if (!href || /^[a-z]+:/i.test(href)) continue;
      const url = pathOf(href, page);
      if (url.origin !== origin) continue;
      const path = url.pathname;
      if (seen.has(path)) continue;
      seen.add(path);
      // The site's pages are read for their links in turn; everything else is only asked for.
      if (path.startsWith('/docs/') && !/\.(css|js|svg|png|ico|woff2?|json)$/.test(path)) {
        queue.push(path);
        continue;
      }
      const target = await request.get(path);
      if (target.status() >= 400) broken.push(`${target.status()} ${path} (from ${page})`);
    }
  }
  expect(broken).toEqual([]);
  // The site was read, not one page: its ~170 pages (guides, references, decision records).
  expect(seen.size).toBeGreaterThan(150);
});
