import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { DOCS } from './docs-links';

const docsDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../../docs');

/** VitePress's heading ids: lower case, punctuation dropped, spaces as dashes. */
const slug = (heading: string) =>
  heading
    .toLowerCase()
    .replace(/[`()[\]{}'".,:;!?*/\\]/g, '')
    .trim()
    .replace(/\s+/g, '-');

describe("the console's links into the documentation site", () => {
  it.each(Object.entries(DOCS))(
    '%s (%s) is a page built from docs/, and its anchor a heading there',
    (_name, href) => {
      const [page = '', anchor] = href.replace(/^\/docs\//, '').split('#');
      const source = page === '' ? 'index.md' : page.replace(/\.html$/, '.md');
      // The API references are generated at build time from docs/openapi.json and the GraphQL schema.
      const generated: Record<string, string> = {
        'reference/graphql.md': 'graphql-schema.graphql',
        'reference/rest-api.md': 'openapi.json',
      };
      const file = path.join(docsDir, generated[source] ?? source);
      expect(existsSync(file), `${file} exists`).toBe(true);
      if (anchor) {
        const headings = [...readFileSync(file, 'utf8').matchAll(/^#{2,3} (.+)$/gm)].map((match) =>
          slug(match[1] ?? ''),
        );
        expect(headings).toContain(anchor);
      }
    },
  );
});
